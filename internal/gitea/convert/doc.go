// Package convert fills Gitea's shapes (internal/gitea/structs) from the
// forge's records, as Gitea's services/convert: the conversions the API
// and the webhooks share, written once. What only the API knows (the
// caller's permission, moderation, the git data on this node, rendered
// bodies) it adds to the result; what only a webhook knows (the change's
// own record of a deleted repository, the time of the event) the webhook
// turns into the same records first.
//
// URLs are built from the site's origin (scheme://host), which the API
// reads from the request and the webhooks from the node's configuration.
package convert
