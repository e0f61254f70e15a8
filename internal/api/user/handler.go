// Package user serves the users' routes: follows, SSH and GPG keys,
// e-mail addresses, notifications, the activity feed and the home page's
// activity.
package user

import "github.com/dforge/dforge/internal/api"

// Handler serves the users' routes over the API's services.
type Handler struct {
	*api.API
}
