package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Issues, comments and labels: Gitea's API v1 paths and JSON shapes, over
// the forge service (writes are forge actions relayed to the chain, or to
// the private store; reads are the SQL projection). A repository the
// viewer may not read is a 404 everywhere, as if it did not exist.

// issuesAPI serves the issue and pull request routes; pulls is the git
// side of pull requests.
type issuesAPI struct {
	*API
	pulls *forge.Pulls
}

// registerIssues adds the issue, label and pull request routes when the
// node hosts repositories.
func (a *API) registerIssues(mux *http.ServeMux) {
	if a.forge == nil || a.hosting == nil {
		return
	}
	h := &issuesAPI{API: a, pulls: a.pulls}
	w := func(fn userHandler) http.HandlerFunc { return a.signedIn(auth.ScopeWrite, fn) }
	const repo = "/api/v1/repos/{owner}/{repo}"
	mux.HandleFunc("GET "+repo+"/issues", h.read(h.listIssues))
	mux.HandleFunc("POST "+repo+"/issues", w(h.createIssue))
	mux.HandleFunc("GET "+repo+"/issues/{index}", h.read(h.getIssue))
	mux.HandleFunc("PATCH "+repo+"/issues/{index}", w(h.editIssue))
	mux.HandleFunc("GET "+repo+"/issues/{index}/comments", h.read(h.listComments))
	mux.HandleFunc("POST "+repo+"/issues/{index}/comments", w(h.createComment))
	mux.HandleFunc("GET "+repo+"/issues/{index}/labels", h.read(h.listIssueLabels))
	mux.HandleFunc("POST "+repo+"/issues/{index}/labels", w(h.addIssueLabels))
	mux.HandleFunc("PUT "+repo+"/issues/{index}/labels", w(h.replaceIssueLabels))
	mux.HandleFunc("DELETE "+repo+"/issues/{index}/labels", w(h.clearIssueLabels))
	mux.HandleFunc("DELETE "+repo+"/issues/{index}/labels/{id}", w(h.removeIssueLabel))
	mux.HandleFunc("GET "+repo+"/labels", h.read(h.listLabels))
	mux.HandleFunc("POST "+repo+"/labels", w(h.createLabel))
	mux.HandleFunc("GET "+repo+"/labels/{id}", h.read(h.getLabel))
	mux.HandleFunc("DELETE "+repo+"/labels/{id}", w(h.deleteLabel))
	mux.HandleFunc("GET /api/v1/issues/{id}", h.read(h.getIssueByID))
	h.registerPulls(mux, w)
}

// read serves a route anyone may call; fn's error is the answer.
func (h *issuesAPI) read(fn func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := fn(w, r); err != nil {
			h.writeError(w, r, err)
		}
	}
}

// issueOf resolves {owner}/{repo} and its issue or pull request {index}.
func (h *issuesAPI) issueOf(r *http.Request) (index.Repo, forge.Perm, index.Issue, error) {
	repo, perm, err := h.repoOf(r)
	if err != nil {
		return index.Repo{}, 0, index.Issue{}, err
	}
	n, err := strconv.ParseUint(r.PathValue("index"), 10, 64)
	if err != nil || n == 0 {
		return index.Repo{}, 0, index.Issue{}, issueNotFound(r.PathValue("index"))
	}
	is, err := h.forge.Index().Issue(r.Context(), repo.ID, n)
	if err != nil {
		return index.Repo{}, 0, index.Issue{}, err
	}
	return repo, perm, is, nil
}

func issueNotFound(what string) error {
	return &usererr.Error{Kind: usererr.NotFound, Code: "not_found", Message: "there is no issue or pull request #" + what}
}

// --- JSON shapes ---

func (l *links) person(u index.User) forgeUserJSON { return toForgeUser(l.req, u) }

// labelJSON is Gitea's Label; colors are hex without '#', as Gitea gives them.
type labelJSON struct {
	ID          uint64 `json:"id"`
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	IsArchived  bool   `json:"is_archived"`
	Color       string `json:"color"`
	Description string `json:"description"`
	URL         string `json:"url"`
}

func (l *links) label(lb index.Label) labelJSON {
	return labelJSON{ID: lb.ID, Name: lb.Name, Color: strings.TrimPrefix(lb.Color, "#"), Description: lb.Description,
		URL: l.api + "/labels/" + strconv.FormatUint(lb.ID, 10)}
}

func (l *links) labels(list []index.Label) []labelJSON {
	out := make([]labelJSON, len(list))
	for i, lb := range list {
		out[i] = l.label(lb)
	}
	return out
}

// repoMetaJSON is Gitea's RepositoryMeta, the repository an issue is in.
type repoMetaJSON struct {
	ID       uint64 `json:"id"`
	Name     string `json:"name"`
	Owner    string `json:"owner"`
	FullName string `json:"full_name"`
}

// pullMetaJSON is Gitea's PullRequestMeta on an issue that is a pull request.
type pullMetaJSON struct {
	Merged   bool    `json:"merged"`
	MergedAt *string `json:"merged_at"`
	Draft    bool    `json:"draft"`
	HTMLURL  string  `json:"html_url"`
}

// issueJSON is Gitea's Issue, plus body_html and state_reason.
type issueJSON struct {
	ID               int64           `json:"id"`
	URL              string          `json:"url"`
	HTMLURL          string          `json:"html_url"`
	Number           uint64          `json:"number"`
	User             forgeUserJSON   `json:"user"`
	OriginalAuthor   string          `json:"original_author"`
	OriginalAuthorID int64           `json:"original_author_id"`
	Title            string          `json:"title"`
	Body             string          `json:"body"`
	BodyHTML         string          `json:"body_html"`
	Ref              string          `json:"ref"`
	Assets           []struct{}      `json:"assets"`
	Labels           []labelJSON     `json:"labels"`
	Milestone        *struct{}       `json:"milestone"`
	Assignee         *forgeUserJSON  `json:"assignee"`
	Assignees        []forgeUserJSON `json:"assignees"`
	State            string          `json:"state"`
	StateReason      string          `json:"state_reason"`
	IsLocked         bool            `json:"is_locked"`
	Comments         uint64          `json:"comments"`
	Created          string          `json:"created_at"`
	Updated          string          `json:"updated_at"`
	Closed           *string         `json:"closed_at"`
	DueDate          *string         `json:"due_date"`
	PullRequest      *pullMetaJSON   `json:"pull_request"`
	Repository       repoMetaJSON    `json:"repository"`
	PinOrder         int             `json:"pin_order"`
}

// links builds URLs and renders bodies for one repository in one request.
type links struct {
	req    *http.Request
	origin string // scheme://host
	api    string // origin + /api/v1/repos/{owner}/{repo}
	html   string // origin + /{owner}/{repo}
	owner  string
	name   string
	render func(body string) string
}

func (h *issuesAPI) linksFor(r *http.Request, repo index.Repo) *links {
	origin := siteURL(r)
	path := url.PathEscape(repo.Owner.Username) + "/" + url.PathEscape(repo.Name)
	l := &links{req: r, origin: origin, api: origin + "/api/v1/repos/" + path, html: origin + "/" + path, owner: repo.Owner.Username, name: repo.Name}
	ctx := r.Context()
	lk := &linker{owner: repo.Owner.Username, repo: repo.Name,
		user: func(ctx context.Context, name string) (string, bool) {
			addr, ok, err := h.forge.Index().AddressOf(ctx, name)
			if err != nil || !ok {
				return "", false
			}
			n, err := h.forge.Index().Username(ctx, addr)
			return n, err == nil && n != ""
		},
		issue: func(ctx context.Context, n uint64) bool {
			_, err := h.forge.Index().Issue(ctx, repo.ID, n)
			return err == nil
		},
	}
	l.render = func(body string) string { return h.renderBody(ctx, lk, body) }
	return l
}

// listLinks is linksFor without rendering: lists leave body_html empty
// (their pages show titles; rendering every body would slow the list).
func (h *issuesAPI) listLinks(r *http.Request, repo index.Repo) *links {
	l := h.linksFor(r, repo)
	l.render = func(string) string { return "" }
	return l
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// issue shapes is; pr, when is is a pull request, adds its merge state.
func (l *links) issue(repo index.Repo, is index.Issue, pr *index.Pull) issueJSON {
	j := issueJSON{
		ID: globalIssueID(is.Repo, is.Number), URL: l.api + "/issues/" + strconv.FormatUint(is.Number, 10),
		HTMLURL: l.html + "/issues/" + strconv.FormatUint(is.Number, 10), Number: is.Number, User: l.person(is.Author),
		Title: is.Title, Body: is.Body, BodyHTML: l.render(is.Body), Assets: []struct{}{}, Labels: l.labels(is.Labels),
		Assignees: make([]forgeUserJSON, len(is.Assignees)), State: is.State, StateReason: is.StateReason, Comments: is.Comments,
		Created: is.Created, Updated: is.Updated, Closed: optional(is.Closed),
		Repository: repoMetaJSON{ID: repo.ID, Name: repo.Name, Owner: repo.Owner.Username, FullName: repo.Owner.Username + "/" + repo.Name},
	}
	for i, u := range is.Assignees {
		j.Assignees[i] = l.person(u)
	}
	if len(j.Assignees) > 0 {
		j.Assignee = &j.Assignees[0]
	}
	if is.IsPull {
		j.HTMLURL = l.html + "/pulls/" + strconv.FormatUint(is.Number, 10)
		meta := &pullMetaJSON{HTMLURL: j.HTMLURL}
		if pr != nil {
			meta.Merged, meta.MergedAt = pr.Merged, optional(pr.MergedAt)
		}
		j.PullRequest = meta
	}
	return j
}

// Global issue ids: Gitea's issues have one id across repositories, which
// the spec's /issue/:id and /pr/:id pages use. The chain numbers issues
// per repository, so the id packs the repository id and the number (24
// bits: 16.7 million per repository) into an integer JavaScript reads
// exactly (below 2^53); private repositories (ids from 2^48) take the top
// half. Ids that cannot be packed are 0.
const (
	issueNumberBits = 24
	maxPackedRepo   = 1 << 28
	privateIssueBit = int64(1) << 52
)

func globalIssueID(repo, number uint64) int64 {
	if number >= 1<<issueNumberBits {
		return 0
	}
	flag := int64(0)
	if chainforge.IsPrivateID(repo) {
		repo -= chainforge.PrivateIDBase
		flag = privateIssueBit
	}
	if repo >= maxPackedRepo {
		return 0
	}
	return flag | int64(repo<<issueNumberBits|number)
}

func parseGlobalIssueID(id int64) (repo, number uint64, ok bool) {
	if id <= 0 || id >= privateIssueBit<<1 {
		return 0, 0, false
	}
	private := id&privateIssueBit != 0
	v := uint64(id &^ privateIssueBit)
	repo, number = v>>issueNumberBits, v&(1<<issueNumberBits-1)
	if private {
		repo += chainforge.PrivateIDBase
	}
	return repo, number, number > 0 && (repo > 0)
}

// --- issues ---

func (h *issuesAPI) listIssues(w http.ResponseWriter, r *http.Request) error {
	repo, _, err := h.repoOf(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := index.IssueFilter{Query: strings.TrimSpace(q.Get("q"))}
	switch q.Get("state") {
	case "", chainforge.StateOpen:
		f.State = chainforge.StateOpen
	case chainforge.StateClosed:
		f.State = chainforge.StateClosed
	case "all":
	default:
		return usererr.InvalidField("state", "invalid_state", "state must be open, closed or all")
	}
	switch q.Get("type") {
	case "":
	case "issues":
		f.IsPull = new(false)
	case "pulls":
		f.IsPull = new(true)
	default:
		return usererr.InvalidField("type", "invalid_type", "type must be issues or pulls")
	}
	if name := q.Get("created_by"); name != "" {
		addr, err := h.forge.Owner(r.Context(), name)
		if err != nil {
			return h.respondIssues(w, r, repo, p, 0, nil)
		}
		f.Author = &addr
	}
	labelIDs, ok, err := h.labelFilter(r.Context(), repo, q.Get("labels"))
	if err != nil || !ok {
		if err == nil {
			err = h.respondIssues(w, r, repo, p, 0, nil)
		}
		return err
	}
	list, total, err := h.issues(r.Context(), repo, f, labelIDs, p)
	if err != nil {
		return err
	}
	return h.respondIssues(w, r, repo, p, total, list)
}

// labelFilter reads ?labels= (comma-separated names or ids); ok is false
// when one names no label of the repository, so nothing can match.
func (h *issuesAPI) labelFilter(ctx context.Context, repo index.Repo, raw string) ([]uint64, bool, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, true, nil
	}
	all, err := h.forge.Index().Labels(ctx, repo.ID)
	if err != nil {
		return nil, false, err
	}
	var ids []uint64
	for _, name := range strings.Split(raw, ",") {
		id, found := findLabel(all, strings.TrimSpace(name))
		if !found {
			return nil, false, nil
		}
		ids = append(ids, id)
	}
	return ids, true, nil
}

func findLabel(all []index.Label, key string) (uint64, bool) {
	for _, l := range all {
		if strings.EqualFold(l.Name, key) {
			return l.ID, true
		}
	}
	if id, err := strconv.ParseUint(key, 10, 64); err == nil {
		for _, l := range all {
			if l.ID == id {
				return id, true
			}
		}
	}
	return 0, false
}

// issues lists repo's issues matching f and carrying every label of
// labelIDs. The projection filters by one label; further ones are checked
// here over every issue with the first (a rare query).
func (h *issuesAPI) issues(ctx context.Context, repo index.Repo, f index.IssueFilter, labelIDs []uint64, p index.Page) ([]index.Issue, int64, error) {
	ix := h.forge.Index()
	if len(labelIDs) > 0 {
		f.Label = labelIDs[0]
	}
	if len(labelIDs) <= 1 {
		return ix.Issues(ctx, repo.ID, f, p)
	}
	var matched []index.Issue
	for page := 1; ; page++ {
		list, total, err := ix.Issues(ctx, repo.ID, f, index.Page{Number: page, Limit: maxLimit})
		if err != nil {
			return nil, 0, err
		}
		for _, is := range list {
			if hasLabels(is, labelIDs[1:]) {
				matched = append(matched, is)
			}
		}
		if int64(page*maxLimit) >= total {
			break
		}
	}
	return pageSlice(matched, p), int64(len(matched)), nil
}

func hasLabels(is index.Issue, ids []uint64) bool {
	for _, id := range ids {
		found := false
		for _, l := range is.Labels {
			found = found || l.ID == id
		}
		if !found {
			return false
		}
	}
	return true
}

func (h *issuesAPI) respondIssues(w http.ResponseWriter, r *http.Request, repo index.Repo, p index.Page, total int64, list []index.Issue) error {
	l := h.listLinks(r, repo)
	// The pull requests' merge state, for the whole page in one read.
	pulls, err := h.forge.Index().PullsOf(r.Context(), repo.ID, list)
	if err != nil {
		return err
	}
	out := make([]issueJSON, 0, len(list))
	for _, is := range list {
		var pr *index.Pull
		if got, ok := pulls[is.Number]; ok && is.IsPull {
			pr = &got
		}
		out = append(out, l.issue(repo, is, pr))
	}
	h.respondList(w, r, p, total, out, nil)
	return nil
}

// maxTextBody bounds a JSON body carrying Markdown: room for a body at the
// chain's limit with JSON escaping, so an oversized text is told apart
// (422, with its size) from a runaway request.
const maxTextBody = 8 * chainforge.MaxBody

// decodeText decodes a request whose fields carry Markdown; a body past
// every limit is still a 422 saying how large text may be.
func decodeText(w http.ResponseWriter, r *http.Request, v any) error {
	err := decode(w, r, maxTextBody, v)
	if ue, ok := usererr.As(err); ok && ue.Kind == usererr.TooLarge {
		return &usererr.Error{Kind: usererr.Unprocessable, Code: "too_large", Field: "body",
			Message: fmt.Sprintf("the text is too large: the most a body or comment may hold is %d bytes", chainforge.MaxBody)}
	}
	return err
}

// checkBody refuses text over the chain's limit before anything is sent.
func checkBody(field, text string) error {
	if len(text) > chainforge.MaxBody {
		return &usererr.Error{Kind: usererr.Unprocessable, Code: "too_large", Field: field,
			Message: fmt.Sprintf("the %s is %d bytes; the most is %d bytes", field, len(text), chainforge.MaxBody)}
	}
	return nil
}

func checkTitle(title string) error {
	if strings.TrimSpace(title) == "" {
		return &usererr.Error{Kind: usererr.Unprocessable, Code: "invalid_field", Field: "title", Message: "the title must not be empty"}
	}
	if n := len([]rune(title)); n > chainforge.MaxTitle {
		return &usererr.Error{Kind: usererr.Unprocessable, Code: "invalid_field", Field: "title",
			Message: fmt.Sprintf("the title is %d characters; the most is %d", n, chainforge.MaxTitle)}
	}
	return nil
}

// assigneesOf resolves usernames (Gitea's assignee and assignees).
func (h *issuesAPI) assigneesOf(ctx context.Context, one string, many []string) ([]common.Address, error) {
	names := many
	if one != "" {
		names = append([]string{one}, many...)
	}
	out := []common.Address{}
	for _, name := range names {
		addr, err := h.forge.Owner(ctx, name)
		if err != nil {
			return nil, &usererr.Error{Kind: usererr.Unprocessable, Code: "invalid_field", Field: "assignees", Message: "there is no user " + name + " to assign"}
		}
		if !containsAddr(out, addr) {
			out = append(out, addr)
		}
	}
	return out, nil
}

func containsAddr(list []common.Address, a common.Address) bool {
	for _, x := range list {
		if x == a {
			return true
		}
	}
	return false
}

func (h *issuesAPI) createIssue(w http.ResponseWriter, r *http.Request, id *auth.Identity) error {
	var in struct {
		Title     string   `json:"title"`
		Body      string   `json:"body"`
		Assignee  string   `json:"assignee"`
		Assignees []string `json:"assignees"`
		Labels    []uint64 `json:"labels"`
	}
	if err := decodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, err := h.repoOf(r)
	if err != nil {
		return err
	}
	if err := checkTitle(in.Title); err != nil {
		return err
	}
	if err := checkBody("body", in.Body); err != nil {
		return err
	}
	assignees, err := h.assigneesOf(r.Context(), in.Assignee, in.Assignees)
	if err != nil {
		return err
	}
	res, err := h.forge.Do(r.Context(), id.User.Address, "issue.create", chainforge.IssueCreate{
		Repo: repo.ID, Title: in.Title, Body: in.Body, Labels: in.Labels, Assignees: assignees,
	})
	if err != nil {
		return err
	}
	is, err := h.forge.Index().Issue(r.Context(), repo.ID, res.Change.Issue.Number)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, h.linksFor(r, repo).issue(repo, is, nil))
	return nil
}

func (h *issuesAPI) getIssue(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	return h.replyIssue(w, r, repo, is)
}

func (h *issuesAPI) replyIssue(w http.ResponseWriter, r *http.Request, repo index.Repo, is index.Issue) error {
	var pr *index.Pull
	if is.IsPull {
		got, err := h.forge.Index().Pull(r.Context(), repo.ID, is.Number)
		if err != nil {
			return err
		}
		pr = &got
	}
	return reply(w, h.linksFor(r, repo).issue(repo, is, pr))
}

// getIssueByID serves an issue or pull request by its global id (ours: the
// spec's /issue/:id and /pr/:id pages), with the same privacy as the rest.
func (h *issuesAPI) getIssueByID(w http.ResponseWriter, r *http.Request) error {
	raw := r.PathValue("id")
	gid, err := strconv.ParseInt(raw, 10, 64)
	repoID, number, ok := parseGlobalIssueID(gid)
	if err != nil || !ok {
		return issueNotFound(raw)
	}
	repo, _, err := h.forge.RepoByID(r.Context(), viewerOf(r), repoID)
	if err != nil {
		return issueNotFound(raw)
	}
	is, err := h.forge.Index().Issue(r.Context(), repo.ID, number)
	if err != nil {
		return issueNotFound(raw)
	}
	return h.replyIssue(w, r, repo, is)
}

// stateChange is the close or reopen an edit asks for; "" when none.
func stateChange(is index.Issue, state, reason string) (string, string, error) {
	switch state {
	case "":
		if reason != "" && is.State == chainforge.StateOpen {
			return "", "", usererr.InvalidField("state_reason", "invalid_field", "state_reason applies when closing: send state closed with it")
		}
		return "", "", nil
	case chainforge.StateOpen, chainforge.StateClosed:
	default:
		return "", "", usererr.InvalidField("state", "invalid_state", "state must be open or closed")
	}
	if state == chainforge.StateClosed {
		switch reason {
		case "", chainforge.ReasonCompleted, chainforge.ReasonNotPlanned:
		default:
			return "", "", usererr.InvalidField("state_reason", "invalid_field", "state_reason must be completed or not_planned")
		}
		if is.IsPull && reason != "" {
			return "", "", usererr.InvalidField("state_reason", "invalid_field", "state_reason applies to issues; a pull request is closed or merged")
		}
	}
	if state == is.State {
		return "", "", nil // as Gitea: asking for the state it has is no error
	}
	return state, reason, nil
}

// editIssue applies Gitea's EditIssueOption: title, body and assignees in
// one issue.edit, then a close or reopen. Everything is checked first, so
// that a refusal leaves the issue untouched.
func (h *issuesAPI) editIssue(w http.ResponseWriter, r *http.Request, id *auth.Identity) error {
	var in struct {
		Title       *string   `json:"title"`
		Body        *string   `json:"body"`
		Assignee    *string   `json:"assignee"`
		Assignees   *[]string `json:"assignees"`
		State       *string   `json:"state"`
		StateReason string    `json:"state_reason"`
	}
	if err := decodeText(w, r, &in); err != nil {
		return err
	}
	repo, perm, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	edit, err := h.issueEdit(r.Context(), repo, is, in.Title, in.Body, in.Assignee, in.Assignees)
	if err != nil {
		return err
	}
	state, reason, err := stateChange(is, deref(in.State), in.StateReason)
	if err != nil {
		return err
	}
	if err := h.applyIssueEdit(r.Context(), id.User.Address, repo, perm, is, edit, state, reason); err != nil {
		return err
	}
	is, err = h.forge.Index().Issue(r.Context(), repo.ID, is.Number)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, h.linksFor(r, repo).issue(repo, is, h.pullRecord(r.Context(), repo, is)))
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (h *issuesAPI) pullRecord(ctx context.Context, repo index.Repo, is index.Issue) *index.Pull {
	if !is.IsPull {
		return nil
	}
	pr, err := h.forge.Index().Pull(ctx, repo.ID, is.Number)
	if err != nil {
		return nil
	}
	return &pr
}

// issueEdit checks and builds the issue.edit an edit asks for (nil: none).
func (h *issuesAPI) issueEdit(ctx context.Context, repo index.Repo, is index.Issue, title, body, assignee *string, assignees *[]string) (*chainforge.IssueEdit, error) {
	edit := &chainforge.IssueEdit{Repo: repo.ID, Number: is.Number}
	changed := false
	if title != nil && *title != is.Title {
		if err := checkTitle(*title); err != nil {
			return nil, err
		}
		edit.Title, changed = title, true
	}
	if body != nil && *body != is.Body {
		if err := checkBody("body", *body); err != nil {
			return nil, err
		}
		edit.Body, changed = body, true
	}
	if assignee != nil || assignees != nil {
		var many []string
		if assignees != nil {
			many = *assignees
		}
		list, err := h.assigneesOf(ctx, deref(assignee), many)
		if err != nil {
			return nil, err
		}
		edit.Assignees, changed = &list, true
	}
	if !changed {
		return nil, nil
	}
	return edit, nil
}

// applyIssueEdit refuses, before either action, what the forge module
// would refuse of the second (its rules: the author or a writer edits, the
// author or a maintainer closes and reopens), then applies both.
func (h *issuesAPI) applyIssueEdit(ctx context.Context, actor common.Address, repo index.Repo, perm forge.Perm, is index.Issue, edit *chainforge.IssueEdit, state, reason string) error {
	author := common.HexToAddress(is.Author.Address) == actor
	if state != "" && is.IsPull {
		if pr := h.pullRecord(ctx, repo, is); pr != nil && pr.Merged {
			return &usererr.Error{Kind: usererr.Conflict, Code: "conflict", Message: fmt.Sprintf("pull request #%d is merged; it cannot be closed or reopened", is.Number)}
		}
	}
	if edit != nil && state != "" && !author && perm < forge.PermMaintain {
		return &usererr.Error{Kind: usererr.Forbidden, Code: "forbidden",
			Message: fmt.Sprintf("only the author or a maintainer may close or reopen #%d", is.Number)}
	}
	if edit != nil {
		if _, err := h.forge.Do(ctx, actor, "issue.edit", edit); err != nil {
			return err
		}
	}
	if state == "" {
		return nil
	}
	action := "issue.close"
	if state == chainforge.StateOpen {
		action = "issue.reopen"
	}
	payload := chainforge.IssueState{Repo: repo.ID, Number: is.Number}
	if state == chainforge.StateClosed && !is.IsPull {
		payload.Reason = reason
	}
	_, err := h.forge.Do(ctx, actor, action, payload)
	return err
}

// --- comments ---

// commentJSON is Gitea's Comment, plus body_html.
type commentJSON struct {
	ID               uint64        `json:"id"`
	HTMLURL          string        `json:"html_url"`
	PullRequestURL   string        `json:"pull_request_url"`
	IssueURL         string        `json:"issue_url"`
	User             forgeUserJSON `json:"user"`
	OriginalAuthor   string        `json:"original_author"`
	OriginalAuthorID int64         `json:"original_author_id"`
	Body             string        `json:"body"`
	BodyHTML         string        `json:"body_html"`
	Assets           []struct{}    `json:"assets"`
	Created          string        `json:"created_at"`
	Updated          string        `json:"updated_at"`
}

func (l *links) comment(is index.Issue, c index.Comment) commentJSON {
	kind := "issues"
	if is.IsPull {
		kind = "pulls"
	}
	page := l.html + "/" + kind + "/" + strconv.FormatUint(is.Number, 10)
	j := commentJSON{
		ID: c.ID, HTMLURL: page + "#issuecomment-" + strconv.FormatUint(c.ID, 10), IssueURL: l.html + "/issues/" + strconv.FormatUint(is.Number, 10),
		User: l.person(c.Author), Body: c.Body, BodyHTML: l.render(c.Body), Assets: []struct{}{}, Created: c.Created, Updated: c.Created,
	}
	if is.IsPull {
		j.PullRequestURL = page
	}
	return j
}

// commentsPage is pageOf, all of them (up to the most a page holds) when
// no limit is given: Gitea lists an issue's comments whole.
func commentsPage(r *http.Request) (index.Page, error) { return pageWithLimit(r, maxLimit) }

func (h *issuesAPI) listComments(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	p, err := commentsPage(r)
	if err != nil {
		return err
	}
	list, total, err := h.forge.Index().Comments(r.Context(), repo.ID, is.Number, p)
	if err != nil {
		return err
	}
	l := h.linksFor(r, repo)
	out := make([]commentJSON, len(list))
	for i, c := range list {
		out[i] = l.comment(is, c)
	}
	h.respondList(w, r, p, total, out, nil)
	return nil
}

func (h *issuesAPI) createComment(w http.ResponseWriter, r *http.Request, id *auth.Identity) error {
	var in struct {
		Body string `json:"body"`
	}
	if err := decodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	if strings.TrimSpace(in.Body) == "" {
		return &usererr.Error{Kind: usererr.Unprocessable, Code: "invalid_field", Field: "body", Message: "a comment must have a body"}
	}
	if err := checkBody("comment", in.Body); err != nil {
		return err
	}
	res, err := h.forge.Do(r.Context(), id.User.Address, "issue.comment", chainforge.IssueComment{Repo: repo.ID, Number: is.Number, Body: in.Body})
	if err != nil {
		return err
	}
	c, err := h.findComment(r.Context(), repo.ID, is.Number, res.Change.Comment.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, h.linksFor(r, repo).comment(is, c))
	return nil
}

// findComment reads comment id back: the newest of its issue, usually.
func (h *issuesAPI) findComment(ctx context.Context, repo, number, id uint64) (index.Comment, error) {
	ix := h.forge.Index()
	_, total, err := ix.Comments(ctx, repo, number, index.Page{Number: 1, Limit: 1})
	if err != nil {
		return index.Comment{}, err
	}
	last := int((total + maxLimit - 1) / maxLimit)
	for page := last; page >= 1; page-- {
		list, _, err := ix.Comments(ctx, repo, number, index.Page{Number: page, Limit: maxLimit})
		if err != nil {
			return index.Comment{}, err
		}
		for _, c := range list {
			if c.ID == id {
				return c, nil
			}
		}
	}
	return index.Comment{}, errors.New("a new comment is missing from the projection")
}
