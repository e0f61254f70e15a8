package api

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dforge/dforge/internal/api/itemjson"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitea/convert"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/moderation"
	"github.com/ethereum/go-ethereum/common"
)

// Converters from the forge's records (index, gitstore) to the JSON shapes
// of types.go, as Gitea's services/convert: the URLs they carry are built
// from the request (siteURL) and the repository's paths (links, code).

func Ptr(s string) *string { return &s }

func (c Code) Content(e gitstore.Entry, ref string) ContentJSON {
	q := "?ref=" + url.QueryEscape(ref)
	self := c.Api + "/contents/" + EscapePath(e.Path) + q
	kind := "src/branch/"
	if strings.Trim(ref, "0123456789abcdef") == "" && len(ref) >= 7 {
		kind = "src/commit/"
	}
	htmlURL := c.Html + "/" + kind + EscapePath(ref) + "/" + EscapePath(e.Path)
	j := ContentJSON{Name: e.Name, Path: e.Path, SHA: e.ID, Type: e.Kind(), Size: e.Size, URL: &self, HTMLURL: &htmlURL}
	switch e.Type {
	case "tree":
		j.GitURL = Ptr(c.Api + "/git/trees/" + e.ID)
	case "blob":
		j.GitURL = Ptr(c.Api + "/git/blobs/" + e.ID)
		j.DownloadURL = Ptr(c.Api + "/raw/" + EscapePath(e.Path) + q)
	}
	j.Links = linksJSON{Self: j.URL, Git: j.GitURL, HTML: j.HTMLURL}
	return j
}

func Rfc3339(s gitstore.Signature) string {
	if s.When.IsZero() {
		return ""
	}
	return s.When.Format("2006-01-02T15:04:05Z07:00")
}

// CidOf is a git object's CID, for a public repository only: a private
// one's objects are never blocks.
func (c Code) CidOf(id string) string {
	if c.Repo.Private {
		return ""
	}
	if cid := blocks.CIDForGitObject(id); cid.Defined() {
		return cid.String()
	}
	return ""
}

func (c Code) Commit(g gitstore.Commit, files bool) CommitJSON {
	var j CommitJSON
	api := c.Api + "/git/commits/" + g.ID
	j.CommitMetaJSON = CommitMetaJSON{URL: api, SHA: g.ID, Created: Rfc3339(g.Committer)}
	j.HTMLURL = c.Html + "/commit/" + g.ID
	j.Commit.URL = api
	j.Commit.Author = IdentityJSON{Name: g.Author.Name, Email: g.Author.Email, Date: Rfc3339(g.Author)}
	j.Commit.Committer = IdentityJSON{Name: g.Committer.Name, Email: g.Committer.Email, Date: Rfc3339(g.Committer)}
	j.Commit.Message = g.Message
	j.Commit.Tree = CommitMetaJSON{URL: c.Api + "/git/trees/" + g.Tree, SHA: g.Tree, Created: j.Created}
	j.Parents = []CommitMetaJSON{}
	for _, p := range g.Parents {
		j.Parents = append(j.Parents, CommitMetaJSON{URL: c.Api + "/git/commits/" + p, SHA: p})
	}
	j.CID = c.CidOf(g.ID)
	if files && g.Files != nil {
		j.Files = make([]commitFileJSON, 0, len(g.Files))
		for _, f := range g.Files {
			fj := commitFileJSON{Filename: f.Path, Status: f.Status, Additions: f.Additions, Deletions: f.Deletions,
				Changes: f.Additions + f.Deletions, Binary: f.Binary}
			if f.OldPath != f.Path {
				fj.PreviousFilename = f.OldPath
			}
			j.Files = append(j.Files, fj)
		}
		add, del := g.Additions(), g.Deletions()
		j.Stats = &commitStatsJSON{Total: add + del, Additions: add, Deletions: del}
	}
	return j
}

func (c Code) Branch(b gitstore.Branch) BranchJSON {
	g := b.Commit
	protected := false
	for _, p := range c.Repo.ProtectedBranches {
		protected = protected || p == b.Name
	}
	j := BranchJSON{
		Name: b.Name, Protected: protected, StatusCheckContexts: []string{},
		UserCanPush: c.Perm >= forge.PermWrite, UserCanMerge: c.Perm >= forge.PermMaintain,
		Commit: convert.PayloadCommit(c.Html, g, false),
	}
	j.Commit.CID = c.CidOf(g.ID)
	if protected {
		j.EffectiveBranchProtectionName = b.Name
	}
	return j
}

// SiteURL is the node's origin as the client reached it (or as the
// operator configured it behind a proxy).
func SiteURL(r *http.Request) string {
	o := auth.OriginOf(r)
	return o.Scheme + "://" + o.Host
}

// sshURL is the clone URL over SSH, on the host the client reached (as
// Gitea's, git@host:owner/repo.git on port 22); "" with no SSH server.
func (a *API) sshURL(r *http.Request, full string) string {
	if a.sshPort == 0 {
		return ""
	}
	host := auth.OriginOf(r).Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if strings.Contains(host, ":") && !strings.HasPrefix(host, "[") {
		host = "[" + host + "]" // IPv6
	}
	if a.sshPort == 22 {
		return "git@" + host + ":" + full + ".git"
	}
	return "ssh://git@" + host + ":" + strconv.Itoa(a.sshPort) + "/" + full + ".git"
}

func ToForgeUser(r *http.Request, u index.User) ForgeUserJSON {
	name := u.Username
	if name == "" && common.IsHexAddress(u.Address) {
		name = names.Default(common.HexToAddress(u.Address))
	}
	addr, id := u.Address, int64(0)
	if common.IsHexAddress(addr) {
		addr = checksummed(addr)
		id = UserIDOf(r, common.HexToAddress(addr))
	}
	return convert.User(SiteURL(r), id, name, addr)
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

// RepoJSON shapes rec for the request's user, whose permission is perm.
func (a *API) RepoJSON(r *http.Request, rec index.Repo, perm forge.Perm) RepoJSON {
	return a.repoJSONWith(r, rec, perm, a.repoGit(rec))
}

// repoGit is what a repository's JSON shows of its git data on this
// node, read from the disk.
type repoGit struct {
	has, empty bool
	// replication is the copying of its git data from other nodes, while
	// it has none here; nil otherwise.
	replication *replicationJSON
}

func (a *API) repoGit(rec index.Repo) repoGit {
	dir, has := a.Hosting.GitDir(rec)
	g := repoGit{has: has, empty: !has || gitstore.IsEmpty(dir)}
	if s, ok := a.Replication(rec); ok && !has {
		g.replication = &replicationJSON{State: s.State, Done: s.Done, Total: s.Total, Error: s.Error}
	}
	return g
}

// repoJSONWith is RepoJSON with its git data g already read.
func (a *API) repoJSONWith(r *http.Request, rec index.Repo, perm forge.Perm, g repoGit) RepoJSON {
	j := convert.Repo(SiteURL(r), ToForgeUser(r, rec.Owner), rec)
	j.Permissions = &permJSON{Admin: perm >= forge.PermOwner, Maintain: perm >= forge.PermMaintain, Push: perm >= forge.PermWrite, Pull: perm >= forge.PermRead}
	j.SSHURL = a.sshURL(r, j.FullName)
	j.HasGitData, j.Empty, j.Replication = g.has, g.empty, g.replication
	if rec.PendingTransfer {
		j.RepoTransfer = a.repoTransfer(r, rec)
	}
	a.ModViewOf(r).maskRepo(&j)
	return j
}

// RepoWithParent is repoJSON plus, for a fork, its parent as the user
// sees it (none when it is gone or hidden).
func (a *API) RepoWithParent(r *http.Request, rec index.Repo, perm forge.Perm) RepoJSON {
	j := a.RepoJSON(r, rec, perm)
	a.viewerFlags(r, rec, &j)
	if rec.ForkOf != 0 {
		if parent, pp, err := a.Forge.RepoByID(r.Context(), ViewerOf(r), rec.ForkOf); err == nil {
			pj := a.RepoJSON(r, parent, pp)
			j.Parent = &pj
		}
	}
	return j
}

// viewerFlags sets whether the signed-in caller stars and watches rec; a
// failed read leaves them out (the client then shows neither as set).
func (a *API) viewerFlags(r *http.Request, rec index.Repo, j *RepoJSON) {
	u, ok := auth.UserFrom(r.Context())
	if !ok {
		return
	}
	ix := a.Forge.Index()
	starred, err := ix.Starred(r.Context(), rec.ID, u.Address)
	if err != nil {
		a.Log.ErrorContext(r.Context(), "read the caller's star", "repo", rec.ID, "err", err)
		return
	}
	watching, err := ix.Watching(r.Context(), rec.ID, u.Address)
	if err != nil {
		a.Log.ErrorContext(r.Context(), "read the caller's watch", "repo", rec.ID, "err", err)
		return
	}
	j.StarredByMe, j.WatchedByMe = &starred, &watching
}

// ReposJSON shapes a list, each with the viewer's permission.
func (a *API) ReposJSON(r *http.Request, list []index.Repo) ([]RepoJSON, error) {
	out := make([]RepoJSON, 0, len(list))
	viewer, mv := ViewerOf(r), a.ModViewOf(r)
	for _, rec := range list {
		if !mv.listed(rec.ID) {
			continue
		}
		p, err := a.Forge.Permission(r.Context(), rec, viewer)
		if err != nil {
			return nil, err
		}
		out = append(out, a.RepoJSON(r, rec, p))
	}
	return out, nil
}

func WatchInfo(r *http.Request, rec index.Repo, on bool) WatchInfoJSON {
	api := SiteURL(r) + "/api/v1/repos/" + ToForgeUser(r, rec.Owner).Login + "/" + rec.Name
	return WatchInfoJSON{Subscribed: on, CreatedAt: rec.Created, URL: api + "/subscription", RepositoryURL: api}
}

// GiteaRole names a permission as Gitea's API does: admin for the owner
// (and maintain, which Gitea lacks, as write), write, read, none.
func GiteaRole(p forge.Perm) string {
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

func (l *Links) Person(u index.User) ForgeUserJSON { return ToForgeUser(l.req, u) }

func (l *Links) Label(lb index.Label) LabelJSON { return convert.Label(l.Api, lb) }

func (l *Links) Labels(list []index.Label) []LabelJSON { return convert.Labels(l.Api, list) }

// Links builds URLs and renders bodies for one repository in one request.
type Links struct {
	req    *http.Request
	origin string // scheme://host
	Api    string // origin + /api/v1/repos/{owner}/{repo}
	Html   string // origin + /{owner}/{repo}
	owner  string
	name   string
	RepoID uint64
	Mod    ModView
	Render func(body string) string
	// Username reads an address's username ("" when it has none).
	Username func(r *http.Request, addr string) string
	// items keeps encoded issues for IssuesJSON: set by ListLinks only.
	items *itemjson.Cache
	// rendered keeps encoded comments for CommentsJSON, whose keys hold
	// their rendered bodies: set by LinksFor.
	rendered *itemjson.Cache
}

func (h *IssuesAPI) LinksFor(r *http.Request, repo index.Repo) *Links {
	origin := SiteURL(r)
	path := url.PathEscape(repo.Owner.Username) + "/" + url.PathEscape(repo.Name)
	l := &Links{req: r, origin: origin, Api: origin + "/api/v1/repos/" + path, Html: origin + "/" + path, owner: repo.Owner.Username, name: repo.Name,
		RepoID: repo.ID, Mod: h.ModViewOf(r), rendered: h.items}
	ctx := r.Context()
	lk := &linker{owner: repo.Owner.Username, repo: repo.Name,
		user: func(ctx context.Context, name string) (string, bool) {
			addr, ok, err := h.Forge.Index().AddressOf(ctx, name)
			if err != nil || !ok {
				return "", false
			}
			n, err := h.Forge.Index().Username(ctx, addr)
			return n, err == nil && n != ""
		},
		issue: func(ctx context.Context, n uint64) bool {
			_, err := h.Forge.Index().Issue(ctx, repo.ID, n)
			return err == nil
		},
	}
	l.Render = func(body string) string { return h.RenderBody(ctx, lk, body) }
	l.Username = func(r *http.Request, addr string) string {
		if !common.IsHexAddress(addr) {
			return ""
		}
		n, _ := h.Forge.Index().Username(r.Context(), common.HexToAddress(addr))
		return n
	}
	return l
}

// ListLinks is linksFor without rendering: lists leave body_html empty
// (their pages show titles; rendering every body would slow the list).
func (h *IssuesAPI) ListLinks(r *http.Request, repo index.Repo) *Links {
	l := h.LinksFor(r, repo)
	l.Render = func(string) string { return "" }
	l.items, l.rendered = h.items, nil
	return l
}

// IssuesJSON is list's issues encoded as a JSON array, as Issue shapes
// them: each one kept from an earlier page when nothing it is made from
// has changed since (itemjson), so a page read after a block shapes and
// encodes only the issues the block touched. Only links of a list
// (ListLinks) keep issues: elsewhere bodies are rendered, from more than
// the issue.
func (l *Links) IssuesJSON(repo index.Repo, list []index.Issue, pulls map[uint64]index.Pull) (EncodedJSON[[]IssueJSON], error) {
	prs := make([]*index.Pull, len(list))
	for i, is := range list {
		if got, ok := pulls[is.Number]; ok && is.IsPull {
			prs[i] = &got
		}
	}
	return encodeItems(l.items, len(list), func(i int, k *itemjson.Key) error {
		l.issueKey(k, repo, list[i], prs[i])
		return nil
	}, func(i int) IssueJSON { return l.Issue(repo, list[i], prs[i]) })
}

// issueKey writes into k everything Issue(repo, is, pr) is made from
// under list links: the links, the repository's names, every field of
// is, the ids of the people it shows, the viewer's moderation view of it
// and pr's merge state. TestIssueKeyHoldsEveryField changes each field
// of is and checks that the key changes.
func (l *Links) issueKey(k *itemjson.Key, repo index.Repo, is index.Issue, pr *index.Pull) {
	k.Reset()
	k.Str(l.origin)
	k.Str(l.Api)
	k.Str(l.Html)
	k.Uint(repo.ID)
	k.Str(repo.Name)
	k.Str(repo.Owner.Username)
	k.Uint(is.Repo)
	k.Uint(is.Number)
	k.Bool(is.IsPull)
	l.personKey(k, is.Author)
	k.Str(is.Title)
	k.Str(is.Body)
	k.Str(is.State)
	k.Str(is.StateReason)
	k.Uint(is.Comments)
	k.Uint(uint64(len(is.Labels)))
	for _, lb := range is.Labels {
		k.Uint(lb.ID)
		k.Str(lb.Name)
		k.Str(lb.Color)
		k.Str(lb.Description)
		k.Bool(lb.Exclusive)
		k.Str(lb.Signer)
		k.Str(lb.Delegation)
	}
	k.Uint(uint64(len(is.Assignees)))
	for _, u := range is.Assignees {
		l.personKey(k, u)
	}
	k.Uint(is.MilestoneID)
	k.Bool(is.Milestone != nil)
	if m := is.Milestone; m != nil {
		k.Uint(m.ID)
		k.Uint(m.Repo)
		k.Str(m.Title)
		k.Str(m.Description)
		k.Str(m.State)
		k.Int(m.OpenIssues)
		k.Int(m.ClosedIssues)
		k.Int(m.Due)
		k.Str(m.Created)
		k.Str(m.Updated)
		k.Str(m.Closed)
		k.Str(m.Signer)
		k.Str(m.Delegation)
	}
	k.Int(int64(is.PinOrder))
	k.Int(is.CreatedHeight)
	k.Str(is.Created)
	k.Int(is.UpdatedHeight)
	k.Str(is.Updated)
	k.Str(is.Closed)
	k.Str(is.Signer)
	k.Str(is.Delegation)
	l.Mod.hiddenKey(k, moderation.KindIssue, moderation.IssueKey(repo.ID, is.Number))
	k.Bool(pr != nil)
	if pr != nil {
		k.Bool(pr.Merged)
		k.Str(pr.MergedAt)
	}
}

// personKey writes what Person(u) is made from besides the site's URL.
func (l *Links) personKey(k *itemjson.Key, u index.User) { PersonKey(l.req, k, u) }

// PersonKey writes what ToForgeUser(r, u) is made from besides the
// site's URL: the address, the name and the user id the index gives the
// address.
func PersonKey(r *http.Request, k *itemjson.Key, u index.User) {
	k.Str(u.Address)
	k.Str(u.Username)
	if common.IsHexAddress(u.Address) {
		k.Int(UserIDOf(r, common.HexToAddress(u.Address)))
	}
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Issue shapes is; pr, when is is a pull request, adds its merge state.
func (l *Links) Issue(repo index.Repo, is index.Issue, pr *index.Pull) IssueJSON {
	j := IssueJSON{
		ID: convert.IssueID(is.Repo, is.Number), URL: l.Api + "/issues/" + strconv.FormatUint(is.Number, 10),
		HTMLURL: l.Html + "/issues/" + strconv.FormatUint(is.Number, 10), Number: is.Number, User: l.Person(is.Author),
		Title: is.Title, Body: is.Body, BodyHTML: l.Render(is.Body), Assets: []struct{}{}, Labels: l.Labels(is.Labels),
		Assignees: make([]ForgeUserJSON, len(is.Assignees)), State: is.State, StateReason: is.StateReason, Comments: is.Comments,
		Created: is.Created, Updated: is.Updated, Closed: optional(is.Closed), Milestone: milestoneRef(is.Milestone), PinOrder: is.PinOrder,
		Signer: is.Signer, Delegation: is.Delegation,
		Repository: repoMetaJSON{ID: repo.ID, Name: repo.Name, Owner: repo.Owner.Username, FullName: repo.Owner.Username + "/" + repo.Name},
	}
	for i, u := range is.Assignees {
		j.Assignees[i] = l.Person(u)
	}
	if len(j.Assignees) > 0 {
		j.Assignee = &j.Assignees[0]
	}
	if is.IsPull {
		j.HTMLURL = l.Html + "/pulls/" + strconv.FormatUint(is.Number, 10)
		meta := &PullMetaJSON{HTMLURL: j.HTMLURL}
		if pr != nil {
			meta.Merged, meta.MergedAt = pr.Merged, optional(pr.MergedAt)
		}
		j.PullRequest = meta
	}
	l.Mod.maskIssue(repo.ID, is.Number, &j)
	return j
}

func (l *Links) Comment(is index.Issue, c index.Comment) CommentJSON {
	return l.comment(is, c, l.Render(c.Body))
}

// comment shapes c of is with html, its body rendered.
func (l *Links) comment(is index.Issue, c index.Comment, html string) CommentJSON {
	kind := "issues"
	if is.IsPull {
		kind = "pulls"
	}
	page := l.Html + "/" + kind + "/" + strconv.FormatUint(is.Number, 10)
	j := CommentJSON{
		ID: c.ID, HTMLURL: page + "#issuecomment-" + strconv.FormatUint(c.ID, 10), IssueURL: l.Html + "/issues/" + strconv.FormatUint(is.Number, 10),
		User: l.Person(c.Author), Body: c.Body, BodyHTML: html, Assets: []struct{}{}, Created: c.Created, Updated: cmp.Or(c.Updated, c.Created),
		Signer: c.Signer, Delegation: c.Delegation,
	}
	if is.IsPull {
		j.PullRequestURL = page
	}
	l.Mod.maskComment(l.RepoID, c.ID, &j)
	return j
}

// CommentsJSON is list encoded as a JSON array, as Comment shapes each
// one of issueOf(c). A comment's JSON is kept (itemjson) by everything it
// is made from, its rendered body included. So the body is still
// rendered for every read (markdown keeps that, and only the linking of
// mentions and references runs again, since they link once their user or
// issue exists), but the comment is shaped and encoded only when
// something it shows has changed.
func (l *Links) CommentsJSON(list []index.Comment, issueOf func(index.Comment) index.Issue) (EncodedJSON[[]CommentJSON], error) {
	html := make([]string, len(list))
	for i, c := range list {
		html[i] = l.Render(c.Body)
	}
	return encodeItems(l.rendered, len(list), func(i int, k *itemjson.Key) error {
		l.commentKey(k, issueOf(list[i]), list[i], html[i])
		return nil
	}, func(i int) CommentJSON { return l.comment(issueOf(list[i]), list[i], html[i]) })
}

// commentKey writes into k everything comment(is, c, html) is made from.
// TestCommentKeyHoldsEveryField changes each field of c and checks that
// the key changes.
func (l *Links) commentKey(k *itemjson.Key, is index.Issue, c index.Comment, html string) {
	k.Reset()
	k.Str("comment")
	k.Str(l.origin)
	k.Str(l.Html)
	k.Uint(l.RepoID)
	k.Uint(is.Number)
	k.Bool(is.IsPull)
	k.Uint(c.ID)
	k.Uint(c.Repo)
	k.Uint(c.Number)
	l.personKey(k, c.Author)
	k.Str(c.Body)
	k.Str(html)
	k.Int(c.Height)
	k.Str(c.Created)
	k.Str(c.Updated)
	k.Bool(c.IsPull)
	k.Str(c.Signer)
	k.Str(c.Delegation)
	l.Mod.hiddenKey(k, moderation.KindComment, moderation.CommentKey(l.RepoID, c.ID))
}

// Pull shapes pr of base; detail adds body_html and what needs a diff
// (its counts and the merge base), which single reads show and lists skip.
func (h *IssuesAPI) Pull(r *http.Request, base index.Repo, perm forge.Perm, pr index.Pull, detail bool) PullJSON {
	l := h.LinksFor(r, base)
	if !detail {
		l = h.ListLinks(r, base)
	}
	is := l.Issue(base, pr.Issue, &pr)
	num := strconv.FormatUint(pr.Number, 10)
	j := PullJSON{
		ID: is.ID, URL: l.Api + "/pulls/" + num, Number: pr.Number, User: is.User, Title: pr.Title, Body: pr.Body, BodyHTML: is.BodyHTML,
		Labels: is.Labels, Milestone: is.Milestone, Assignee: is.Assignee, Assignees: is.Assignees, RequestedReviewers: l.people(pr.RequestedReviewers), State: pr.State,
		Comments: pr.Comments, HTMLURL: l.Html + "/pulls/" + num, DiffURL: l.Html + "/pulls/" + num + ".diff",
		PatchURL: l.Html + "/pulls/" + num + ".patch", ConflictedFiles: []string{}, Merged: pr.Merged, MergedAt: optional(pr.MergedAt),
		MergeCommitSHA: optional(pr.MergeSHA), MergeStyle: pr.MergeStyle, Created: pr.Created, Updated: pr.Updated, Closed: optional(pr.Closed),
		Base:   prBranchJSON{Label: pr.BaseBranch, Ref: pr.BaseBranch, SHA: pr.BaseSHA, RepoID: base.ID},
		Head:   prBranchJSON{Label: pr.HeadBranch, Ref: pr.HeadBranch, SHA: pr.HeadSHA, RepoID: pr.HeadRepo},
		Signer: is.Signer, Delegation: is.Delegation,
	}
	if is.Hidden { // is carries what the viewer may see of it
		j.Hidden, j.HiddenReason, j.Title, j.Body = true, is.HiddenReason, is.Title, is.Body
	}
	if pr.MergedBy != nil {
		u := l.Person(*pr.MergedBy)
		j.MergedBy = &u
	}
	baseJSON := h.RepoJSON(r, base, perm)
	j.Base.Repo = &baseJSON
	if pr.HeadRepo == base.ID {
		j.Head.Repo = &baseJSON
	} else if head, hp, err := h.Forge.RepoByID(r.Context(), ViewerOf(r), pr.HeadRepo); err == nil {
		headJSON := h.RepoJSON(r, head, hp)
		j.Head.Repo, j.Head.Label = &headJSON, head.Owner.Username+":"+pr.HeadBranch
	}
	if comments, err := h.Index.ReviewComments(r.Context(), base.ID, pr.Number); err == nil {
		j.ReviewComments = len(comments)
	}
	m := h.Pulls.Mergeable(r.Context(), base, pr)
	j.Mergeable, j.MergeableReason = m.Mergeable, m.Reason
	if len(m.Conflicts) > 0 {
		j.ConflictedFiles, j.MergeableReason = m.Conflicts, "conflicts"
	}
	if detail {
		if cmp, err := h.Pulls.Compare(r.Context(), base, pr); err == nil {
			j.MergeBase = cmp.From
			if files, err := gitstore.CompareFiles(r.Context(), cmp.Dir, cmp.From, cmp.To); err == nil {
				adds, dels, n := 0, 0, len(files)
				for _, f := range files {
					adds, dels = adds+f.Additions, dels+f.Deletions
				}
				j.Additions, j.Deletions, j.ChangedFiles = &adds, &dels, &n
			}
		}
	}
	return j
}

// people shapes users as Gitea's list of users, [] when none.
func (l *Links) people(us []index.User) []ForgeUserJSON {
	out := make([]ForgeUserJSON, len(us))
	for i, u := range us {
		out[i] = l.Person(u)
	}
	return out
}

func (l *Links) Review(pr index.Pull, rv index.Review) ReviewJSON {
	page := l.Html + "/pulls/" + strconv.FormatUint(pr.Number, 10)
	// A request is no review yet; a dismissed review no longer counts.
	official := rv.State != chainforge.ReviewCommented && rv.State != index.ReviewRequested && !rv.Dismissed
	return ReviewJSON{
		ID: rv.ID, User: l.Person(rv.Author), State: reviewStates[rv.State], Body: rv.Body, BodyHTML: l.Render(rv.Body),
		CommitID: rv.CommitSHA, Stale: rv.CommitSHA != "" && rv.CommitSHA != pr.HeadSHA, Official: official, Dismissed: rv.Dismissed, CodeCommentsCount: len(rv.Comments),
		Submitted: rv.Submitted, Updated: rv.Submitted, HTMLURL: page + "#pullrequestreview-" + strconv.FormatUint(rv.ID, 10), PullRequestURL: page,
		Signer: rv.Signer, Delegation: rv.Delegation,
	}
}

// ReviewComment is c of review rv. commit_id is the head it still
// describes, or the reviewed commit when the head outdated it
// (Pulls.Outdated); original_commit_id is always the reviewed commit.
func (l *Links) ReviewComment(pr index.Pull, rv index.Review, c index.ReviewComment, outdated bool) ReviewCommentJSON {
	page := l.Html + "/pulls/" + strconv.FormatUint(pr.Number, 10)
	j := ReviewCommentJSON{
		ID: c.ID, Body: c.Body, BodyHTML: l.Render(c.Body), User: l.Person(rv.Author), ReviewID: rv.ID, Created: rv.Submitted,
		Updated: rv.Submitted, Path: c.Path, CommitID: rv.CommitSHA, OriginalCommitID: rv.CommitSHA,
		HTMLURL: page + "/files#issuecomment-" + strconv.FormatUint(c.ID, 10), PullRequestURL: page, Outdated: outdated,
	}
	if !outdated && rv.CommitSHA != "" {
		j.CommitID = pr.HeadSHA
	}
	if c.Side == "old" {
		j.OriginalPosition = c.Line
	} else {
		j.Position = c.Line
	}
	return j
}

// PersonJSON is the public user GET /users/{username} gives, for a found
// account: its profile here, if it has one.
func PersonJSON(r *http.Request, p index.Person) UserJSON {
	j := UserJSON{ID: p.ID, Login: p.Username, FullName: p.FullName, Description: p.Description, Location: p.Location,
		Website: p.Website, WalletAddress: checksummed(p.Address), HTMLURL: SiteURL(r) + "/" + p.Username, giteaUserJSON: convert.UserCommon(p.Username)}
	if !p.Created.IsZero() {
		j.Created = p.Created.Format(time.RFC3339)
	}
	return j
}

// ToTeamJSON shapes t with its organization o.
func ToTeamJSON(r *http.Request, t index.Team, o index.Org) TeamJSON {
	oj := ToOrgJSON(r, o)
	j := TeamJSON{ID: int64(t.ID), Name: t.Name, Description: t.Description, Organization: &oj,
		IncludesAllRepositories: t.IncludesAllRepos, Permission: t.Permission, Units: t.Units,
		UnitsMap: map[string]string{}, CanCreateOrgRepo: t.CanCreateOrgRepo, MembersCount: t.Members}
	if j.Units == nil {
		j.Units = []string{}
	}
	for _, u := range j.Units {
		j.UnitsMap[u] = t.Permission
	}
	return j
}

// ToOrgJSON is Gitea's Organization of o.
func ToOrgJSON(r *http.Request, o index.Org) OrgJSON {
	return OrgJSON{ID: int64(o.ID), Name: o.Name, UserName: o.Name, FullName: o.FullName, Description: o.Description,
		Website: o.Website, Location: o.Location, Visibility: o.Visibility, WalletAddress: o.Address, RepoCount: o.Repos,
		HTMLURL: SiteURL(r) + "/org/" + o.Name}
}

// HiddenReasons are the reasons the user's preferences turn off.
func (a *API) HiddenReasons(r *http.Request, id *auth.Identity) ([]string, error) {
	p, err := a.Auth.NotificationPrefs(r.Context(), id.User)
	if err != nil {
		return nil, fmt.Errorf("read notification preferences: %w", err)
	}
	var hidden []string
	if !p.Mentions {
		hidden = append(hidden, index.ReasonMention)
	}
	if !p.Reviews {
		hidden = append(hidden, index.ReasonReview, index.ReasonReviewRequested)
	}
	if !p.Rewards {
		hidden = append(hidden, index.ReasonReward, index.ReasonRewardWithheld)
	}
	if !p.Governance {
		hidden = append(hidden, index.ReasonProposalOpened, index.ReasonProposalEnding)
	}
	return hidden, nil
}
