// Package org serves the organizations' routes: organizations, their
// members, teams and labels, teams' repositories, and owners' webhooks.
package org

import "github.com/dforge/dforge/internal/api"

// Handler serves the organizations' routes over the API's services.
type Handler struct {
	*api.API
}
