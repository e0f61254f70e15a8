// Package issue serves the issue and pull request routes: issues and
// their comments, reactions, timelines, labels, milestones and tracked
// times; pull requests with their files, reviews, review requests and
// merges.
package issue

import "github.com/dforge/dforge/internal/api"

// Handler serves the issue and pull request routes over the API's
// services and the git side of pull requests.
type Handler struct {
	*api.IssuesAPI
}
