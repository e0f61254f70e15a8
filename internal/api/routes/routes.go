// Package routes is the API's one route table, in miniflux's style: it
// lists, in order, every resource's routes, so the whole surface of
// internal/api and its subpackages reads in one screen.
package routes

import (
	"log/slog"
	"net/http"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/api/admin"
	"github.com/dforge/dforge/internal/api/chainapi"
	"github.com/dforge/dforge/internal/api/community"
	"github.com/dforge/dforge/internal/api/issue"
	"github.com/dforge/dforge/internal/api/org"
	"github.com/dforge/dforge/internal/api/repo"
	"github.com/dforge/dforge/internal/api/user"
)

// API is the node's JSON API with its route table.
type API struct {
	*api.API
}

// New returns the API over the given services; it builds none of its
// own (internal/node builds each service once).
func New(log *slog.Logger, s api.Services, version string) *API {
	return &API{API: api.New(log, s, version)}
}

// Register adds every API route to mux, behind the one bound on query
// parameters (BoundQuery).
func (a *API) Register(mux *http.ServeMux) {
	routes := &http.ServeMux{} // a literal, so the OpenAPI generator, which reads the source, sees its type
	a.routes(routes)
	comments := &http.ServeMux{} // see RegisterIssueComments
	issueRoutes := &issue.Handler{IssuesAPI: &api.IssuesAPI{API: a.API, Pulls: a.Pulls}}
	issueRoutes.RegisterIssueComments(comments)
	mux.Handle("/api/", issue.CommentPaths(a.BoundQuery(comments), a.BoundQuery(routes)))
	if a.Actions != nil { // runners speak connect-rpc, not the JSON API
		mux.Handle(actions.Prefix+"/", a.Actions.Handler())
		mux.Handle(actions.ResultsPrefix, a.Actions.ResultsHandler())   // artifacts v4 (Twirp)
		mux.Handle(actions.PipelinePrefix, a.Actions.PipelineHandler()) // artifacts v3
	}
}

// routes lists every API route.
func (a *API) routes(mux *http.ServeMux) {
	repoRoutes := &repo.Handler{API: a.API}
	adminRoutes := &admin.Handler{API: a.API}
	userRoutes := &user.Handler{API: a.API}
	issueRoutes := &issue.Handler{IssuesAPI: &api.IssuesAPI{API: a.API, Pulls: a.Pulls}}
	orgRoutes := &org.Handler{API: a.API}
	communityRoutes := &community.Handler{API: a.API}
	chainRoutes := &chainapi.Handler{API: a.API}
	a.RegisterSite(mux)
	if a.HasChain() {
		chainRoutes.RegisterChain(mux)
		chainRoutes.RegisterChainReads(mux)
		chainRoutes.RegisterGovernance(mux)
	}
	a.RegisterAuth(mux)
	chainRoutes.RegisterDelegations(mux)
	a.RegisterNetwork(mux)
	a.RegisterSettings(mux)
	repoRoutes.RegisterRepos(mux)
	repoRoutes.RegisterReleases(mux)
	orgRoutes.RegisterOrgs(mux)
	repoRoutes.RegisterStatuses(mux)
	repoRoutes.RegisterBranchWrites(mux)
	repoRoutes.RegisterTagWrites(mux)
	userRoutes.RegisterKeys(mux)
	userRoutes.RegisterFollows(mux)
	communityRoutes.RegisterForum(mux)
	issueRoutes.RegisterIssues(mux)
	a.RegisterHooks(mux)
	a.RegisterMarketplace(mux)
	orgRoutes.RegisterOwnerHooks(mux)
	repoRoutes.RegisterTopics(mux)
	userRoutes.RegisterEmails(mux)
	repoRoutes.RegisterRepoLists(mux)
	a.RegisterSearch(mux)
	repoRoutes.RegisterCodeSearch(mux)
	userRoutes.RegisterActivity(mux)
	userRoutes.RegisterFeed(mux)
	userRoutes.RegisterNotifications(mux)
	communityRoutes.RegisterReports(mux)
	a.RegisterDashboard(mux)
	communityRoutes.RegisterMessages(mux)
	communityRoutes.RegisterTickets(mux)
	communityRoutes.RegisterEvents(mux)
	adminRoutes.RegisterAdmin(mux)
	communityRoutes.RegisterCommunity(mux)
	chainRoutes.RegisterBounties(mux)
	a.RegisterMisc(mux)
	repoRoutes.RegisterDeployKeys(mux)
	issueRoutes.RegisterTrackedTimes(mux)
	orgRoutes.RegisterOrgLabels(mux)
	repoRoutes.RegisterActions(mux)
	repoRoutes.RegisterActionRuns(mux)
	repoRoutes.RegisterActionControls(mux)
	repoRoutes.RegisterActionArtifacts(mux)
	repoRoutes.RegisterActionLive(mux)
	orgRoutes.RegisterActions(mux)
	repoRoutes.RegisterActionSecrets(mux)
	orgRoutes.RegisterActionSecrets(mux)
	userRoutes.RegisterActionSecrets(mux)
	a.RegisterNotFound(mux)
}

// ServeBadge serves a workflow's status badge,
// /{owner}/{repo}/actions/workflows/{file}/badge.svg (the web server sends
// repo.IsBadgePath here ahead of the app's routes).
func (a *API) ServeBadge(w http.ResponseWriter, r *http.Request) {
	(&repo.Handler{API: a.API}).ServeBadge(w, r)
}

// ServeDownload serves a release asset at Gitea's browser_download_url,
// with range requests, from this node's blockstore (the web server sends
// api.IsDownloadPath here ahead of the app's routes).
func (a *API) ServeDownload(w http.ResponseWriter, r *http.Request) {
	(&repo.Handler{API: a.API}).ServeDownload(w, r)
}
