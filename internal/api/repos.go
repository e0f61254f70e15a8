package api

import (
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/replica"
	"github.com/dforge/dforge/internal/usererr"
)

// Repositories, Gitea's API v1 shapes: create, read, edit, delete, fork,
// transfer, search and list; stars, watches and collaborators. Writes go
// through the forge (on chain, or the private store for a private
// repository) and, where git data changes too, through gitrepos. A
// repository the caller may not read is 404, like a missing one.

const maxRepoBody = 64 << 10

// registerRepos adds the repository and code routes when the node runs a
// forge.
func (a *API) registerRepos(mux *http.ServeMux) {
	if a.hosting == nil {
		return
	}
	user := a.signedIn
	mux.HandleFunc("POST /api/v1/user/repos", user(auth.ScopeWrite, a.createRepo))
	mux.HandleFunc("GET /api/v1/user/repos", user(auth.ScopeRead, a.listMyRepos))
	mux.HandleFunc("GET /api/v1/users/{username}/repos", a.serve(a.listUserRepos))
	mux.HandleFunc("GET /api/v1/repos/search", a.serve(a.searchRepos))
	mux.HandleFunc("GET /api/v1/repositories/{id}", a.serve(a.getRepoByID))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}", a.serve(a.getRepo))
	mux.HandleFunc("PATCH /api/v1/repos/{owner}/{repo}", user(auth.ScopeWrite, a.editRepo))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}", user(auth.ScopeWrite, a.deleteRepo))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/forks", user(auth.ScopeWrite, a.forkRepo))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/transfer", user(auth.ScopeWrite, a.transferRepo))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/replication", a.serve(a.getReplication))

	mux.HandleFunc("GET /api/v1/user/starred/{owner}/{repo}", user(auth.ScopeRead, a.getStarred))
	mux.HandleFunc("PUT /api/v1/user/starred/{owner}/{repo}", user(auth.ScopeWrite, a.flagRepo("repo.star", http.StatusNoContent)))
	mux.HandleFunc("DELETE /api/v1/user/starred/{owner}/{repo}", user(auth.ScopeWrite, a.flagRepo("repo.unstar", http.StatusNoContent)))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/stargazers", a.serve(a.listStargazers))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/subscription", user(auth.ScopeRead, a.getSubscription))
	mux.HandleFunc("PUT /api/v1/repos/{owner}/{repo}/subscription", user(auth.ScopeWrite, a.flagRepo("repo.watch", http.StatusOK)))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/subscription", user(auth.ScopeWrite, a.flagRepo("repo.unwatch", http.StatusNoContent)))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/subscribers", a.serve(a.listSubscribers))

	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/collaborators", a.serve(a.listCollaborators))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/collaborators/{collaborator}", a.serve(a.getCollaborator))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/collaborators/{collaborator}/permission", a.serve(a.getCollaboratorPermission))
	mux.HandleFunc("PUT /api/v1/repos/{owner}/{repo}/collaborators/{collaborator}", user(auth.ScopeWrite, a.putCollaborator))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/collaborators/{collaborator}", user(auth.ScopeWrite, a.deleteCollaborator))

	a.registerContents(mux)
}

// viewerOf is the request's user, or the zero address for anyone.
func viewerOf(r *http.Request) common.Address {
	if u, ok := auth.UserFrom(r.Context()); ok {
		return u.Address
	}
	return common.Address{}
}

// repoOf finds the {owner}/{repo} of the path as the request's user sees it.
func (a *API) repoOf(r *http.Request) (index.Repo, forge.Perm, error) {
	return a.hosting.Repo(r.Context(), viewerOf(r), r.PathValue("owner"), r.PathValue("repo"))
}

// siteURL is the node's origin as the client reached it (or as the
// operator configured it behind a proxy).
func siteURL(r *http.Request) string {
	o := auth.OriginOf(r)
	return o.Scheme + "://" + o.Host
}

// forgeUserJSON is Gitea's User for a forge participant: an address with
// its chain username. Node-local profile fields are in /users/{username}.
type forgeUserJSON struct {
	ID            int64  `json:"id"`
	Login         string `json:"login"`
	LoginName     string `json:"login_name"`
	FullName      string `json:"full_name"`
	Email         string `json:"email"`
	AvatarURL     string `json:"avatar_url"`
	HTMLURL       string `json:"html_url"`
	WalletAddress string `json:"wallet_address"`
}

func toForgeUser(r *http.Request, u index.User) forgeUserJSON {
	name := u.Username
	if name == "" && common.IsHexAddress(u.Address) {
		name = names.Default(common.HexToAddress(u.Address))
	}
	addr := u.Address
	if common.IsHexAddress(addr) {
		addr = checksummed(addr)
	}
	return forgeUserJSON{Login: name, HTMLURL: siteURL(r) + "/" + name, WalletAddress: addr}
}

// checksummed is addr in EIP-55 form. Lists show the same few people on
// every row, and each checksum is a Keccak hash, so recent answers are
// kept (a bounded map, emptied when full).
func checksummed(addr string) string {
	checksumMu.Lock()
	sum, ok := checksums[addr]
	checksumMu.Unlock()
	if ok {
		return sum
	}
	sum = common.HexToAddress(addr).Hex()
	checksumMu.Lock()
	if len(checksums) >= 4096 {
		clear(checksums)
	}
	checksums[addr] = sum
	checksumMu.Unlock()
	return sum
}

var (
	checksumMu sync.Mutex
	checksums  = map[string]string{}
)

// permJSON is Gitea's Permission, with the maintain level Gitea lacks.
type permJSON struct {
	Admin    bool `json:"admin"`
	Push     bool `json:"push"`
	Pull     bool `json:"pull"`
	Maintain bool `json:"maintain"`
}

// repoJSON is Gitea's Repository.
type repoJSON struct {
	ID                  uint64        `json:"id"`
	Owner               forgeUserJSON `json:"owner"`
	Name                string        `json:"name"`
	FullName            string        `json:"full_name"`
	Description         string        `json:"description"`
	Empty               bool          `json:"empty"`
	Private             bool          `json:"private"`
	Fork                bool          `json:"fork"`
	Template            bool          `json:"template"`
	Parent              *repoJSON     `json:"parent"`
	Mirror              bool          `json:"mirror"`
	Size                int           `json:"size"`
	Language            string        `json:"language"`
	HTMLURL             string        `json:"html_url"`
	URL                 string        `json:"url"`
	SSHURL              string        `json:"ssh_url"`
	CloneURL            string        `json:"clone_url"`
	OriginalURL         string        `json:"original_url"`
	Website             string        `json:"website"`
	StarsCount          uint64        `json:"stars_count"`
	ForksCount          uint64        `json:"forks_count"`
	WatchersCount       uint64        `json:"watchers_count"`
	OpenIssuesCount     uint64        `json:"open_issues_count"`
	OpenPRCounter       uint64        `json:"open_pr_counter"`
	ReleaseCounter      int           `json:"release_counter"`
	DefaultBranch       string        `json:"default_branch"`
	Archived            bool          `json:"archived"`
	CreatedAt           string        `json:"created_at"`
	UpdatedAt           string        `json:"updated_at"`
	Permissions         *permJSON     `json:"permissions,omitempty"`
	HasIssues           bool          `json:"has_issues"`
	HasWiki             bool          `json:"has_wiki"`
	HasPullRequests     bool          `json:"has_pull_requests"`
	HasProjects         bool          `json:"has_projects"`
	HasReleases         bool          `json:"has_releases"`
	AllowMergeCommits   bool          `json:"allow_merge_commits"`
	AllowRebase         bool          `json:"allow_rebase"`
	AllowRebaseExplicit bool          `json:"allow_rebase_explicit"`
	AllowSquashMerge    bool          `json:"allow_squash_merge"`
	DefaultMergeStyle   string        `json:"default_merge_style"`
	AvatarURL           string        `json:"avatar_url"`
	Internal            bool          `json:"internal"`
	// dForge's own.
	ProtectedBranches []string `json:"protected_branches"`
	CreatedHeight     int64    `json:"created_height"`
	UpdatedHeight     int64    `json:"updated_height"`
	// OnChain: a public repository's record is on chain; a private one's
	// is node-local.
	OnChain bool `json:"on_chain"`
	// HasGitData is false on a node that holds the record but not the
	// repository's git data (it was created on another node).
	HasGitData bool `json:"has_git_data"`
	// Replication is how copying the git data here from another node
	// stands, while has_git_data is false on a node that seeds it.
	Replication *replicationJSON `json:"replication,omitempty"`
}

// replicationJSON is where copying a repository's git data from another
// node stands.
type replicationJSON struct {
	// State is replicating, ready or failed (retried).
	State string `json:"state"`
	// Done is how many of the Total refs are at the chain's values.
	Done  int    `json:"done"`
	Total int    `json:"total"`
	Error string `json:"error,omitempty"`
}

// repoJSON shapes rec for the request's user, whose permission is perm.
func (a *API) repoJSON(r *http.Request, rec index.Repo, perm forge.Perm) repoJSON {
	base := siteURL(r)
	owner := toForgeUser(r, rec.Owner)
	full := owner.Login + "/" + rec.Name
	j := repoJSON{
		ID: rec.ID, Owner: owner, Name: rec.Name, FullName: full, Description: rec.Description, Private: rec.Private,
		Fork: rec.ForkOf != 0, HTMLURL: base + "/" + full, URL: base + "/api/v1/repos/" + full, CloneURL: base + "/" + full + ".git",
		StarsCount: rec.Stars, ForksCount: rec.Forks, WatchersCount: rec.Watchers, OpenIssuesCount: rec.OpenIssues,
		OpenPRCounter: rec.OpenPulls, DefaultBranch: rec.DefaultBranch, CreatedAt: rec.Created, UpdatedAt: rec.Updated,
		HasIssues: true, HasPullRequests: true, AllowMergeCommits: true, AllowRebase: true, AllowSquashMerge: true,
		DefaultMergeStyle: "merge", ProtectedBranches: rec.ProtectedBranches, CreatedHeight: rec.CreatedHeight,
		UpdatedHeight: rec.UpdatedHeight, OnChain: !rec.Private,
		Permissions: &permJSON{Admin: perm >= forge.PermOwner, Maintain: perm >= forge.PermMaintain, Push: perm >= forge.PermWrite, Pull: perm >= forge.PermRead},
	}
	if j.ProtectedBranches == nil {
		j.ProtectedBranches = []string{}
	}
	j.HasGitData = a.hosting.HasGit(rec)
	if s, ok := a.replication(rec); ok && !j.HasGitData {
		j.Replication = &replicationJSON{State: s.State, Done: s.Done, Total: s.Total, Error: s.Error}
	}
	if dir, err := a.hosting.Dir(rec); err == nil && j.HasGitData {
		j.Empty = gitstore.IsEmpty(dir)
	} else {
		j.Empty = true
	}
	return j
}

// repoWithParent is repoJSON plus, for a fork, its parent as the user
// sees it (none when it is gone or hidden).
func (a *API) repoWithParent(r *http.Request, rec index.Repo, perm forge.Perm) repoJSON {
	j := a.repoJSON(r, rec, perm)
	if rec.ForkOf != 0 {
		if parent, pp, err := a.forge.RepoByID(r.Context(), viewerOf(r), rec.ForkOf); err == nil {
			pj := a.repoJSON(r, parent, pp)
			j.Parent = &pj
		}
	}
	return j
}

// reposJSON shapes a list, each with the viewer's permission.
func (a *API) reposJSON(r *http.Request, list []index.Repo) ([]repoJSON, error) {
	out := make([]repoJSON, 0, len(list))
	viewer := viewerOf(r)
	for _, rec := range list {
		p, err := a.forge.Permission(r.Context(), rec, viewer)
		if err != nil {
			return nil, err
		}
		out = append(out, a.repoJSON(r, rec, p))
	}
	return out, nil
}

// gitDataFailed answers a write whose forge record was made but whose git
// data was not: a 500 that says so, after logging the cause.
func (a *API) gitDataFailed(w http.ResponseWriter, r *http.Request, err error) {
	a.log.ErrorContext(r.Context(), "git data", "path", r.URL.Path, "err", err)
	writeJSON(w, http.StatusInternalServerError, errorBody{Code: "git_data_failed",
		Message: "The repository was recorded, but this node could not write its git data. The node's operator has been told; please try again later or contact them."})
}

// hostingError answers a flow's error: gitDataFailed for ErrGitData, the
// usual answer otherwise.
func (a *API) hostingError(w http.ResponseWriter, r *http.Request, err error) error {
	if errors.Is(err, gitrepos.ErrGitData) {
		a.gitDataFailed(w, r, err)
		return nil
	}
	return err
}

// defaultReadme is Gitea's "Default" README template.
func defaultReadme(name, description string) []byte {
	s := "# " + name + "\n"
	if description != "" {
		s += "\n" + description + "\n"
	}
	return []byte(s)
}

// noreplyEmail is the commit address of a user's web commits: their
// username at the node's host, as Gitea's noreply addresses are.
func noreplyEmail(r *http.Request, username string) string {
	host := auth.OriginOf(r).Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host == "" || !strings.Contains(host, ".") || net.ParseIP(host) != nil {
		host = "dforge.local"
	}
	return username + "@noreply." + host
}

func usernameOf(u auth.User) string {
	if u.Username != "" {
		return u.Username
	}
	return names.Default(u.Address)
}

func (a *API) createRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Name          string `json:"name"`
		Description   string `json:"description"`
		Private       bool   `json:"private"`
		AutoInit      bool   `json:"auto_init"`
		DefaultBranch string `json:"default_branch"`
		Readme        string `json:"readme"`
	}
	if err := decode(w, r, maxRepoBody, &in); err != nil {
		return err
	}
	if in.Readme != "" && in.Readme != "Default" {
		return usererr.BadFieldf("readme", `readme names a README template; the only one is "Default"`)
	}
	opts := gitrepos.CreateOptions{Name: in.Name, Description: in.Description, DefaultBranch: in.DefaultBranch, Private: in.Private}
	if in.AutoInit {
		name := usernameOf(id.User)
		opts.README = defaultReadme(in.Name, in.Description)
		opts.Author = gitstore.Signature{Name: name, Email: noreplyEmail(r, name), When: time.Now()}
	}
	rec, err := a.hosting.Create(r.Context(), id.User.Address, opts)
	if err != nil {
		return a.hostingError(w, r, err)
	}
	writeJSON(w, http.StatusCreated, a.repoJSON(r, rec, forge.PermOwner))
	return nil
}

func (a *API) getRepo(w http.ResponseWriter, r *http.Request) error {
	rec, perm, err := a.repoOf(r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, a.repoWithParent(r, rec, perm))
	return nil
}

func (a *API) getRepoByID(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil {
		return usererr.Missingf("repository %s does not exist", r.PathValue("id"))
	}
	rec, perm, err := a.forge.RepoByID(r.Context(), viewerOf(r), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, a.repoWithParent(r, rec, perm))
	return nil
}

func (a *API) editRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.repoOf(r)
	if err != nil {
		return err
	}
	var in struct {
		Name              *string   `json:"name"`
		Description       *string   `json:"description"`
		DefaultBranch     *string   `json:"default_branch"`
		Private           *bool     `json:"private"`
		ProtectedBranches *[]string `json:"protected_branches"`
	}
	if err := decode(w, r, maxRepoBody, &in); err != nil {
		return err
	}
	if in.Private != nil && *in.Private != rec.Private {
		return usererr.BadFieldf("private", "a repository's visibility is fixed when it is created: public ones are on chain, private ones never leave this node")
	}
	up := chainforge.RepoUpdate{Name: in.Name, Description: in.Description, DefaultBranch: in.DefaultBranch, ProtectedBranches: in.ProtectedBranches}
	if up.Name != nil || up.Description != nil || up.DefaultBranch != nil || up.ProtectedBranches != nil {
		if rec, err = a.hosting.Update(r.Context(), id.User.Address, rec, up); err != nil {
			return a.hostingError(w, r, err)
		}
	}
	perm, err := a.forge.Permission(r.Context(), rec, id.User.Address)
	if err != nil {
		return err
	}
	return reply(w, a.repoWithParent(r, rec, perm))
}

// ownerOnly refuses, before anything is written, what only the owner may
// do; the forge module checks again.
func ownerOnly(perm forge.Perm, what string) error {
	if perm < forge.PermOwner {
		return usererr.Deniedf("only the repository's owner may %s", what)
	}
	return nil
}

func (a *API) deleteRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	rec, perm, err := a.repoOf(r)
	if err != nil {
		return err
	}
	if err := ownerOnly(perm, "delete it"); err != nil {
		return err
	}
	if err := a.hosting.Delete(r.Context(), id.User.Address, rec); err != nil {
		return a.hostingError(w, r, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) forkRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	src, _, err := a.repoOf(r)
	if err != nil {
		return err
	}
	var in struct {
		Name         string `json:"name"`
		Organization string `json:"organization"`
	}
	if r.ContentLength != 0 {
		if err := decode(w, r, maxRepoBody, &in); err != nil {
			return err
		}
	}
	if in.Organization != "" {
		return usererr.BadFieldf("organization", "dForge has no organizations: a fork belongs to you")
	}
	fork, err := a.hosting.Fork(r.Context(), id.User.Address, src, in.Name)
	if err != nil {
		return a.hostingError(w, r, err)
	}
	writeJSON(w, http.StatusAccepted, a.repoWithParent(r, fork, forge.PermOwner))
	return nil
}

func (a *API) transferRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	rec, perm, err := a.repoOf(r)
	if err != nil {
		return err
	}
	var in struct {
		NewOwner string  `json:"new_owner"`
		TeamIDs  []int64 `json:"team_ids"`
	}
	if err := decode(w, r, maxRepoBody, &in); err != nil {
		return err
	}
	if err := ownerOnly(perm, "transfer it"); err != nil {
		return err
	}
	to, err := a.hosting.Owner(r.Context(), strings.TrimSpace(in.NewOwner))
	if err != nil || in.NewOwner == "" {
		return usererr.BadFieldf("new_owner", "new_owner must be an existing username or an address")
	}
	moved, err := a.hosting.Transfer(r.Context(), id.User.Address, rec, to)
	if err != nil {
		return a.hostingError(w, r, err)
	}
	p, err := a.forge.Permission(r.Context(), moved, id.User.Address)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, a.repoJSON(r, moved, p))
	return nil
}

// listRepos answers one page of the repositories f selects.
func (a *API) listRepos(w http.ResponseWriter, r *http.Request, f index.RepoFilter, wrap bool) error {
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	f.Viewer = viewerOf(r)
	list, total, err := a.forge.Repos(r.Context(), f, p)
	if err != nil {
		return err
	}
	out, err := a.reposJSON(r, list)
	if wrap {
		return a.respondList(w, r, p, total, map[string]any{"ok": true, "data": out}, err)
	}
	return a.respondList(w, r, p, total, out, err)
}

func (a *API) listMyRepos(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	return a.listRepos(w, r, index.RepoFilter{Owner: &id.User.Address}, false)
}

func (a *API) listUserRepos(w http.ResponseWriter, r *http.Request) error {
	owner, err := a.hosting.Owner(r.Context(), r.PathValue("username"))
	if err != nil {
		return err
	}
	return a.listRepos(w, r, index.RepoFilter{Owner: &owner}, false)
}

// searchSorts maps Gitea's sort names to the index's.
var searchSorts = map[string]string{"": "updated", "alpha": "name", "name": "name", "created": "created", "updated": "updated",
	"newest": "created", "stars": "stars", "forks": "forks", "moststars": "stars", "mostforks": "forks"}

// searchRepos is Gitea's search ({ok, data}). Each sort has one order, the
// useful one (names A to Z, the rest highest or newest first); order is
// checked, not applied.
func (a *API) searchRepos(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	sort, ok := searchSorts[q.Get("sort")]
	if !ok {
		return usererr.InvalidField("sort", "invalid_sort", "sort must be alpha, created, updated, stars or forks")
	}
	if o := q.Get("order"); o != "" && o != "asc" && o != "desc" {
		return usererr.InvalidField("order", "invalid_order", "order must be asc or desc")
	}
	f := index.RepoFilter{Query: strings.TrimSpace(q.Get("q")), Sort: sort}
	if uid := q.Get("owner"); uid != "" {
		owner, err := a.hosting.Owner(r.Context(), uid)
		if err != nil {
			return a.respondList(w, r, index.Page{Number: 1, Limit: defaultLimit}, 0, map[string]any{"ok": true, "data": []repoJSON{}}, nil)
		}
		f.Owner = &owner
	}
	return a.listRepos(w, r, f, true)
}

// --- stars and watches ---

// flagRepo stars, unstars, watches or unwatches for the signed-in user.
func (a *API) flagRepo(action string, status int) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := requireUser(r)
		if err != nil {
			return err
		}
		rec, _, err := a.repoOf(r)
		if err != nil {
			return err
		}
		if _, err := a.forge.Do(r.Context(), id.User.Address, action, chainforge.RepoRef{Repo: rec.ID}); err != nil {
			return err
		}
		if status == http.StatusOK { // a watch answers with the subscription
			return reply(w, watchInfo(r, rec, true))
		}
		w.WriteHeader(status)
		return nil
	}
}

func (a *API) getStarred(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.repoOf(r)
	if err != nil {
		return err
	}
	starred, err := a.forge.Index().Starred(r.Context(), rec.ID, id.User.Address)
	if err != nil {
		return err
	}
	if !starred {
		return usererr.Missingf("you have not starred this repository")
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// watchInfoJSON is Gitea's WatchInfo.
type watchInfoJSON struct {
	Subscribed    bool    `json:"subscribed"`
	Ignored       bool    `json:"ignored"`
	Reason        *string `json:"reason"`
	CreatedAt     string  `json:"created_at"`
	URL           string  `json:"url"`
	RepositoryURL string  `json:"repository_url"`
}

func watchInfo(r *http.Request, rec index.Repo, on bool) watchInfoJSON {
	api := siteURL(r) + "/api/v1/repos/" + toForgeUser(r, rec.Owner).Login + "/" + rec.Name
	return watchInfoJSON{Subscribed: on, CreatedAt: rec.Created, URL: api + "/subscription", RepositoryURL: api}
}

func (a *API) getSubscription(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.repoOf(r)
	if err != nil {
		return err
	}
	on, err := a.forge.Index().Watching(r.Context(), rec.ID, id.User.Address)
	if err != nil {
		return err
	}
	if !on {
		return usererr.Missingf("you are not watching this repository")
	}
	return reply(w, watchInfo(r, rec, true))
}

// userList answers a page of users read by list.
func (a *API) userList(w http.ResponseWriter, r *http.Request, list func(index.Repo, index.Page) ([]index.User, int64, error)) error {
	rec, _, err := a.repoOf(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	users, total, err := list(rec, p)
	out := make([]forgeUserJSON, 0, len(users))
	for _, u := range users {
		out = append(out, toForgeUser(r, u))
	}
	return a.respondList(w, r, p, total, out, err)
}

func (a *API) listStargazers(w http.ResponseWriter, r *http.Request) error {
	return a.userList(w, r, func(rec index.Repo, p index.Page) ([]index.User, int64, error) {
		return a.forge.Index().Stargazers(r.Context(), rec.ID, p)
	})
}

func (a *API) listSubscribers(w http.ResponseWriter, r *http.Request) error {
	return a.userList(w, r, func(rec index.Repo, p index.Page) ([]index.User, int64, error) {
		return a.forge.Index().Watchers(r.Context(), rec.ID, p)
	})
}

// --- collaborators ---

// collaboratorJSON is Gitea's User with the collaborator's permission.
type collaboratorJSON struct {
	forgeUserJSON
	Permission string `json:"permission"`
}

func (a *API) listCollaborators(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.repoOf(r)
	if err != nil {
		return err
	}
	list, err := a.forge.Index().Collaborators(r.Context(), rec.ID)
	out := make([]collaboratorJSON, 0, len(list))
	for _, c := range list {
		out = append(out, collaboratorJSON{forgeUserJSON: toForgeUser(r, c.User), Permission: c.Permission})
	}
	return a.respondList(w, r, index.Page{Number: 1, Limit: max(len(out), 1)}, int64(len(out)), out, err)
}

// collaboratorOf resolves the {collaborator} of the path and their
// permission on the path's repository.
func (a *API) collaboratorOf(r *http.Request) (index.Repo, common.Address, forge.Perm, forge.Perm, error) {
	rec, viewerPerm, err := a.repoOf(r)
	if err != nil {
		return index.Repo{}, common.Address{}, forge.PermNone, forge.PermNone, err
	}
	who, err := a.hosting.Owner(r.Context(), r.PathValue("collaborator"))
	if err != nil {
		return index.Repo{}, common.Address{}, forge.PermNone, forge.PermNone, err
	}
	p, err := a.forge.Permission(r.Context(), rec, who)
	return rec, who, p, viewerPerm, err
}

func (a *API) getCollaborator(w http.ResponseWriter, r *http.Request) error {
	rec, who, _, _, err := a.collaboratorOf(r)
	if err != nil {
		return err
	}
	list, err := a.forge.Index().Collaborators(r.Context(), rec.ID)
	if err != nil {
		return err
	}
	for _, c := range list {
		if common.HexToAddress(c.User.Address) == who {
			w.WriteHeader(http.StatusNoContent)
			return nil
		}
	}
	return usererr.Missingf("%s is not a collaborator", r.PathValue("collaborator"))
}

// giteaRole names a permission as Gitea's API does: admin for the owner
// (and maintain, which Gitea lacks, as write), write, read, none.
func giteaRole(p forge.Perm) string {
	switch {
	case p >= forge.PermOwner:
		return "admin"
	case p >= forge.PermWrite:
		return "write"
	case p >= forge.PermRead:
		return "read"
	}
	return "none"
}

func (a *API) getCollaboratorPermission(w http.ResponseWriter, r *http.Request) error {
	_, who, p, _, err := a.collaboratorOf(r)
	if err != nil {
		return err
	}
	u := index.User{Address: who.Hex()}
	if name, err := a.forge.Index().Username(r.Context(), who); err == nil {
		u.Username = name
	}
	writeJSON(w, http.StatusOK, map[string]any{"permission": giteaRole(p), "role_name": p.String(), "user": toForgeUser(r, u)})
	return nil
}

func (a *API) putCollaborator(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	rec, who, _, viewerPerm, err := a.collaboratorOf(r)
	if err != nil {
		return err
	}
	in := struct {
		Permission string `json:"permission"`
	}{Permission: "write"} // Gitea's default
	if r.ContentLength != 0 {
		if err := decode(w, r, maxRepoBody, &in); err != nil {
			return err
		}
	}
	perm := in.Permission
	if perm == "admin" { // Gitea's highest collaborator role is our maintain
		perm = "maintain"
	}
	if _, ok := chainforge.ParsePerm(perm); !ok || perm == "none" {
		return usererr.BadFieldf("permission", "permission must be read, write, maintain or admin")
	}
	if err := ownerOnly(viewerPerm, "manage its collaborators"); err != nil {
		return err
	}
	if err := a.hosting.SetCollaborator(r.Context(), id.User.Address, rec, who, perm); err != nil {
		return a.hostingError(w, r, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) deleteCollaborator(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	rec, who, _, viewerPerm, err := a.collaboratorOf(r)
	if err != nil {
		return err
	}
	if err := ownerOnly(viewerPerm, "manage its collaborators"); err != nil {
		return err
	}
	if err := a.hosting.SetCollaborator(r.Context(), id.User.Address, rec, who, "none"); err != nil {
		return a.hostingError(w, r, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// replication is how copying rec's git data to this node stands; false
// when the node does not replicate it.
func (a *API) replication(rec index.Repo) (replica.Status, bool) {
	if a.replicas == nil || rec.Private {
		return replica.Status{}, false
	}
	return a.replicas.Status(rec.ID)
}
