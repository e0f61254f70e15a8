// The content feature's public entry point: the shape of a content page, which docs pages share.
export type { Page } from './api'
