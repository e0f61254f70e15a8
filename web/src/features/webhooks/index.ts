// The webhooks feature's public entry point: the hooks panel and the scopes it manages, for other features' settings (an organization's).
export { orgHooks, repoHooks, type HookScope } from './api'
export { WebhooksPanel } from './WebhooksPanel'
