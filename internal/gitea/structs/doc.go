// Package structs holds Gitea's JSON shapes (Gitea's modules/structs) with
// dForge's additions, once: the API answers with them and the webhooks
// send them, so a repository, an issue or a user looks the same in both.
// Shapes only, no behaviour: internal/gitea/convert fills them from the
// forge's records. It imports nothing of the module, so every layer above
// the index may use it.
//
// The API names each shape with an alias (internal/api/types.go: type
// RepoJSON = structs.Repository) under which the OpenAPI document has
// always listed it; tools/openapi documents a shape under its alias's
// name wherever it appears.
package structs
