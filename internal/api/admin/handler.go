// Package admin serves the admin console's routes: the node's health and
// settings, and its users, sessions and tokens. Each answers 404 to anyone
// but the node's admins.
package admin

import "github.com/dforge/dforge/internal/api"

// Handler serves the admin console's routes over the API's services.
type Handler struct {
	*api.API
}
