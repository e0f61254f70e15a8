// Package repo serves the repository routes: repositories and their
// lists, code (contents, trees, blobs, commits, compare, code views and
// search), branches, tags and their protections, releases, statuses,
// collaborators, contributors, stars and watches, topics, transfers,
// replication and deploy keys.
package repo

import "github.com/dforge/dforge/internal/api"

// Handler serves the repository routes over the API's services.
type Handler struct {
	*api.API
}
