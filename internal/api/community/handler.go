// Package community serves the community's routes: the forum, events,
// direct messages, support tickets, reports and moderation, and the
// community pages.
package community

import "github.com/dforge/dforge/internal/api"

// Handler serves the community's routes over the API's services.
type Handler struct {
	*api.API
}
