package api

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/dforge/dforge/internal/api/itemjson"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitea/structs"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/replica"
	"github.com/ethereum/go-ethereum/common"
)

// What the repository routes (internal/api/repo) share with the rest of
// the API: a repository as the viewer may read it, its code, and the
// shapes other routes embed.

const MaxRepoBody = 64 << 10

// ViewerOf is the request's user, or the zero address for anyone.
func ViewerOf(r *http.Request) common.Address {
	if u, ok := auth.UserFrom(r.Context()); ok {
		return u.Address
	}
	return common.Address{}
}

// RepoOf finds the {owner}/{repo} of the path as the request's user sees it.
func (a *API) RepoOf(r *http.Request) (index.Repo, forge.Perm, error) {
	return a.Hosting.Repo(r.Context(), ViewerOf(r), r.PathValue("owner"), r.PathValue("repo"))
}

// HostingError answers a flow's error: gitDataFailed for ErrGitData, the
// usual answer otherwise.
func (a *API) HostingError(w http.ResponseWriter, r *http.Request, err error) error {
	if errors.Is(err, gitrepos.ErrGitData) {
		a.gitDataFailed(w, r, err)
		return nil
	}
	return err
}

// DefaultReadme is Gitea's "Default" README template.
func DefaultReadme(name, description string) []byte {
	s := "# " + name + "\n"
	if description != "" {
		s += "\n" + description + "\n"
	}
	return []byte(s)
}

// NoreplyEmail is the commit address of a user's web commits: their
// username at the node's host, as Gitea's noreply addresses are.
func NoreplyEmail(r *http.Request, username string) string {
	host := auth.OriginOf(r).Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host == "" || !strings.Contains(host, ".") || net.ParseIP(host) != nil {
		host = "dforge.local"
	}
	return username + "@noreply." + host
}

func UsernameOf(u auth.User) string {
	if u.Username != "" {
		return u.Username
	}
	return names.Default(u.Address)
}

// ListRepos answers one page of the repositories f selects.
func (a *API) ListRepos(w http.ResponseWriter, r *http.Request, f index.RepoFilter, wrap bool) error {
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	f.Viewer = ViewerOf(r)
	list, total, err := a.Forge.Repos(r.Context(), f, p)
	if err != nil {
		return err
	}
	out, err := a.ReposJSON(r, list)
	if wrap {
		return a.RespondList(w, r, p, total, map[string]any{"ok": true, "data": out}, err)
	}
	return a.RespondList(w, r, p, total, out, err)
}

// Replication is how copying rec's git data to this node stands; false
// when the node does not replicate it.
func (a *API) Replication(rec index.Repo) (replica.Status, bool) {
	if a.Replicas == nil || rec.Private {
		return replica.Status{}, false
	}
	return a.Replicas.Status(rec.ID)
}

const (
	// MaxContentSize is the largest file the contents API inlines; a
	// larger one comes with too_large and no content (raw serves it).
	MaxContentSize = 1 << 20
	// MaxReadmeSize is the largest README rendered.
	MaxReadmeSize = 1 << 20
	// MaxJSONDiff caps the diff a commit's JSON carries (diff_truncated).
	MaxJSONDiff = 1 << 20
	// TreePageSize is Gitea's default page of a git tree.
	TreePageSize = 1000
)

// Code is a visible repository with its git data on this node.
type Code struct {
	Repo index.Repo
	Perm forge.Perm
	Dir  string
	Api  string // the repository's API URL
	Html string // its page
}

// EscapePath escapes each segment of a repository path for a URL.
func EscapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// PersonOf is addr's user as the index names it.
func (a *API) PersonOf(r *http.Request, addr common.Address) index.User {
	if p, err := a.Forge.Index().PersonByAddress(r.Context(), addr); err == nil {
		return p.User
	}
	return index.User{Address: addr.Hex(), Username: a.DefaultName(r.Context(), addr)}
}

// WithAccounts fills each commit's author and committer with the account
// its email names, by the rules contributorsByAccount counts with, as
// Gitea links commits to its users; an email that names no account stays
// null.
func (a *API) WithAccounts(r *http.Request, cs []CommitJSON) error {
	emails := make([]string, 0, 2*len(cs))
	for _, c := range cs {
		emails = append(emails, c.Commit.Author.Email, c.Commit.Committer.Email)
	}
	account, err := a.accountsOf(r, emails)
	if err != nil {
		return err
	}
	for i := range cs {
		cs[i].Author = account(cs[i].Commit.Author.Email)
		cs[i].Committer = account(cs[i].Commit.Committer.Email)
	}
	return nil
}

// accountsOf reads, at once, which accounts emails name; account then
// answers one email's (nil for nobody's), the same value for an email
// named twice.
func (a *API) accountsOf(r *http.Request, emails []string) (account func(email string) *ForgeUserJSON, err error) {
	lower := make([]string, len(emails))
	for i, e := range emails {
		lower[i] = strings.ToLower(e)
	}
	claims, err := a.Forge.Index().EmailOwners(r.Context(), lower)
	if err != nil {
		return nil, fmt.Errorf("read the accounts of commit emails: %w", err)
	}
	found := map[string]*ForgeUserJSON{}
	return func(email string) *ForgeUserJSON {
		email = strings.ToLower(email)
		if u, ok := found[email]; ok {
			return u
		}
		var u *ForgeUserJSON
		if addr, ok := a.AccountOfEmail(r, email, claims); ok {
			j := ToForgeUser(r, a.PersonOf(r, addr))
			u = &j
		}
		found[email] = u
		return u
	}, nil
}

// CommitsJSON is list encoded as a JSON array, as Commit and WithAccounts
// shape it. A commit's JSON is kept (itemjson) by everything it is made
// from: its id (a commit, and the files it changes, never change), the
// path the list follows, the repository's URLs and visibility, and the
// JSON of the accounts its author's and committer's emails name now (a
// claimed email changes them). So a page read again, at any depth,
// shapes and encodes nothing.
func (a *API) CommitsJSON(r *http.Request, c Code, list []gitstore.Commit, files bool, path string) (EncodedJSON[[]CommitJSON], error) {
	emails := make([]string, 0, 2*len(list))
	for _, g := range list {
		emails = append(emails, g.Author.Email, g.Committer.Email)
	}
	account, err := a.accountsOf(r, emails)
	if err != nil {
		return nil, err
	}
	people := JSONOf[ForgeUserJSON]{}
	authors, committers := make([]*ForgeUserJSON, len(list)), make([]*ForgeUserJSON, len(list))
	for i, g := range list {
		authors[i], committers[i] = account(g.Author.Email), account(g.Committer.Email)
	}
	return encodeItems(a.commits, len(list), func(i int, k *itemjson.Key) error {
		for _, s := range []string{"commit", c.Api, c.Html, path, list[i].ID} {
			k.Str(s)
		}
		k.Bool(c.Repo.Private)
		k.Bool(files && list[i].Files != nil)
		for _, u := range []*ForgeUserJSON{authors[i], committers[i]} {
			b, err := people.Of(u)
			if err != nil {
				return err
			}
			k.Str(b)
		}
		return nil
	}, func(i int) CommitJSON {
		j := c.Commit(list[i], files)
		j.Author, j.Committer = authors[i], committers[i]
		return j
	})
}

// IsDownloadPath reports whether an escaped path is a release asset's
// download, /{owner}/{repo}/releases/download/{tag}/{name}: the web server
// sends it here ahead of the app's routes.
func IsDownloadPath(p string) bool {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	return len(parts) == 6 && parts[2] == "releases" && parts[3] == "download" && !strings.HasPrefix(p, "/api/")
}

// repoTransferJSON is Gitea's RepoTransfer.
type repoTransferJSON = structs.RepoTransfer

// repoTransfer shapes rec's pending transfer; nil when it has none (an
// answer projected since the row was read) or it cannot be read, which
// the log tells.
func (a *API) repoTransfer(r *http.Request, rec index.Repo) *repoTransferJSON {
	t, ok, err := a.Forge.Index().RepoTransfer(r.Context(), rec.ID)
	if err != nil {
		a.Log.WarnContext(r.Context(), "read a pending transfer", "repo", rec.ID, "err", err)
	}
	if !ok {
		return nil
	}
	j := &repoTransferJSON{Doer: ToForgeUser(r, t.Doer), Recipient: ToForgeUser(r, t.Recipient), Teams: []TeamJSON{}}
	for _, tid := range t.Teams {
		team, err := a.Forge.Index().TeamByID(r.Context(), tid)
		if err != nil {
			continue // deleted since the offer: it will not get the repository
		}
		o, err := a.Forge.Index().OrgByID(r.Context(), team.Org)
		if err != nil {
			continue
		}
		j.Teams = append(j.Teams, ToTeamJSON(r, team, o))
	}
	return j
}

// CommitStatusJSON is Gitea's CommitStatus.
type CommitStatusJSON struct {
	ID int64 `json:"id"`
	// State is "status" in Gitea's CommitStatus (its combined status says "state").
	State       string        `json:"status"`
	TargetURL   string        `json:"target_url"`
	Description string        `json:"description"`
	URL         string        `json:"url"`
	Context     string        `json:"context"`
	Creator     ForgeUserJSON `json:"creator"`
	Created     string        `json:"created_at"`
	Updated     string        `json:"updated_at"`
}

func (a *API) ToStatus(r *http.Request, apiURL string, st index.CommitStatus) CommitStatusJSON {
	return CommitStatusJSON{
		ID: int64(st.ID), State: st.State, TargetURL: st.TargetURL, Description: st.Description, Context: st.Context,
		URL: apiURL + "/statuses/" + st.SHA, Creator: ToForgeUser(r, st.Creator), Created: st.Time, Updated: st.Time,
	}
}

// CombinedState is the worst of states; "" for none.
func CombinedState(states []string) string {
	worst := len(statusRank)
	for _, s := range states {
		for i, r := range statusRank {
			if r == s && i < worst {
				worst = i
			}
		}
	}
	if worst == len(statusRank) {
		return ""
	}
	return statusRank[worst]
}

// AccountOfEmail is the account a commit email names, if any.
func (a *API) AccountOfEmail(r *http.Request, email string, claims map[string]common.Address) (common.Address, bool) {
	if addr, ok := claims[email]; ok {
		return addr, true
	}
	local, domain, _ := strings.Cut(email, "@")
	if len(local) == 42 && strings.HasPrefix(local, "0x") && common.IsHexAddress(local) {
		return common.HexToAddress(local), true
	}
	if strings.HasPrefix(domain, "noreply.") {
		if addr, err := a.Hosting.Owner(r.Context(), local); err == nil {
			return addr, true
		}
	}
	return common.Address{}, false
}

// gitDataFailed answers a write whose forge record was made but whose git
// data was not: a 500 that says so, after logging the cause.
func (a *API) gitDataFailed(w http.ResponseWriter, r *http.Request, err error) {
	a.Log.ErrorContext(r.Context(), "git data", "path", r.URL.Path, "err", err)
	WriteJSON(w, http.StatusInternalServerError, ErrorBody{Code: "git_data_failed", URL: DocsURL(r),
		Message: "The repository was recorded, but this node could not write its git data. The node's operator has been told; please try again later or contact them."})
}

// statusRank orders states from worst to best, as Gitea combines them.
var statusRank = []string{chainforge.StatusError, chainforge.StatusFailure, chainforge.StatusWarning, chainforge.StatusPending, chainforge.StatusSuccess}
