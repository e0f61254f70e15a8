package api

import (
	"context"
	"math"
	"net/http"
	"strings"
	"time"

	chainforge "github.com/dforge/dforge/internal/chain/forge"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitea/convert"
	"github.com/dforge/dforge/internal/gitea/structs"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/moderation"
	"github.com/dforge/dforge/internal/usererr"
	"github.com/ethereum/go-ethereum/common"
)

// What the issue and pull request routes (internal/api/issue) share with
// the rest of the API: the handler over issues, the bounds and checks of
// their text, and the shapes other routes embed.

// IssuesAPI serves the issue and pull request routes; pulls is the git
// side of pull requests.
type IssuesAPI struct {
	*API
	Pulls *forge.Pulls
}

// WithoutDeleted leaves out of list the issues deleted on this node
// (deleteIssue), for everyone but the node's admins. A page may come out
// shorter than asked: the deleted are few, and the list is the chain's.
func (h *IssuesAPI) WithoutDeleted(ctx context.Context, list []index.Issue) []index.Issue {
	if h.Mod == nil {
		return list
	}
	if u, ok := auth.UserFrom(ctx); ok && h.isAdmin(u.Address) {
		return list
	}
	kept := make([]index.Issue, 0, len(list)) // list may be the read cache's: never written
	for _, is := range list {
		if hd, ok := h.Mod.IsHidden(moderation.KindIssue, moderation.IssueKey(is.Repo, is.Number)); !ok || !hd.Deleted {
			kept = append(kept, is)
		}
	}
	return kept
}

// MaxTextBody bounds a JSON body carrying Markdown: room for a body at the
// chain's limit with JSON escaping, so an oversized text is told apart
// (422, with its size) from a runaway request.
const MaxTextBody = 8 * chainforge.MaxBody

// DecodeText decodes a request whose fields carry Markdown; a body past
// every limit is still a 422 saying how large text may be.
func DecodeText(w http.ResponseWriter, r *http.Request, v any) error {
	err := Decode(w, r, MaxTextBody, v)
	if ue, ok := usererr.As(err); ok && ue.Kind == usererr.TooLarge {
		return usererr.Unprocessablef("body", usererr.CodeTooLarge, "the text is too large: the most a body or comment may hold is %d bytes", chainforge.MaxBody)
	}
	return err
}

// CheckBody refuses text over the chain's limit before anything is sent.
func CheckBody(field, text string) error {
	if len(text) > chainforge.MaxBody {
		return usererr.Unprocessablef(field, usererr.CodeTooLarge, "the %s is %d bytes; the most is %d bytes", field, len(text), chainforge.MaxBody)
	}
	return nil
}

func CheckTitle(title string) error {
	if strings.TrimSpace(title) == "" {
		return usererr.BadFieldf("title", "the title must not be empty")
	}
	if n := len([]rune(title)); n > chainforge.MaxTitle {
		return usererr.BadFieldf("title", "the title is %d characters; the most is %d", n, chainforge.MaxTitle)
	}
	return nil
}

func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TimeParam reads query parameter name as an RFC 3339 time, in Unix
// nanoseconds (at least 1); 0 when absent.
func TimeParam(r *http.Request, name string) (int64, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return 0, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return 0, usererr.BadFieldf(name, "%s must be a time in RFC 3339 form, such as 2024-01-02T15:04:05Z", name)
	}
	// Nanoseconds hold the years 1678 to 2262: a time past them is the
	// last (or first) moment they hold, not a wrapped-around number.
	switch {
	case t.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64, nil
	case !t.After(time.Unix(0, 0)):
		return 1, nil // before every block: since keeps all, before none
	}
	return t.UnixNano(), nil
}

// MilestoneJSON is Gitea's Milestone.
type MilestoneJSON = structs.Milestone

// milestoneRef is the milestone an issue shows: nil when it has none.
func milestoneRef(m *index.Milestone) *MilestoneJSON {
	if m == nil {
		return nil
	}
	j := convert.Milestone(*m)
	return &j
}

// Gitea's review states, and the forge module's.
var reviewStates = map[string]string{
	chainforge.ReviewApprove: "APPROVED", chainforge.ReviewRequestChanges: "REQUEST_CHANGES", chainforge.ReviewCommented: "COMMENT",
	forge.ReviewPending: "PENDING", index.ReviewRequested: "REQUEST_REVIEW",
}

// HeadOf finds the repository and branch of Gitea's head: "branch" in the
// base itself, "owner:branch" in owner's fork of it (or the base, or a
// repository it was forked from, when owner owns that), or
// "owner/repo:branch" of a repository in the same fork network: the base,
// a fork of it, or one of the repositories it was forked from.
func (a *API) HeadOf(ctx context.Context, viewer common.Address, base index.Repo, head string) (index.Repo, string, error) {
	spec, branch, fork := strings.Cut(head, ":")
	if !fork {
		return base, head, nil
	}
	if branch == "" {
		return index.Repo{}, "", headInvalid("%q names no branch: write owner:branch", head)
	}
	parents := a.forkParents(ctx, viewer, base)
	if owner, name, ok := strings.Cut(spec, "/"); ok {
		repo, _, err := a.Forge.Repo(ctx, viewer, owner, name)
		if err != nil {
			return index.Repo{}, "", err
		}
		if repo.ID == base.ID || repo.ForkOf == base.ID {
			return repo, branch, nil
		}
		for _, p := range parents {
			if p.ID == repo.ID {
				return repo, branch, nil
			}
		}
		return index.Repo{}, "", headInvalid("%s/%s is not %s/%s, a fork of it or a repository it was forked from", owner, name, base.Owner.Username, base.Name)
	}
	addr, err := a.Forge.Owner(ctx, spec)
	if err != nil {
		return index.Repo{}, "", headInvalid("there is no user %s", spec)
	}
	if addr == base.OwnerAddress() {
		return base, branch, nil
	}
	for _, p := range parents {
		if addr == p.OwnerAddress() {
			return p, branch, nil
		}
	}
	for page := 1; ; page++ {
		list, total, err := a.Forge.Repos(ctx, index.RepoFilter{Viewer: viewer, Owner: &addr, Sort: "name"}, index.Page{Number: page, Limit: MaxLimit})
		if err != nil {
			return index.Repo{}, "", err
		}
		for _, r := range list {
			if r.ForkOf == base.ID {
				return r, branch, nil
			}
		}
		if int64(page*MaxLimit) >= total {
			return index.Repo{}, "", headInvalid("%s has no fork of %s/%s", spec, base.Owner.Username, base.Name)
		}
	}
}

// A page of files carries each file's patch up to maxFilePatch bytes, and
// at most maxPagePatch bytes of patches in all: a huge diff is read a page
// at a time, and a huge file says it was cut.
const (
	MaxFilePatch = 256 << 10
	MaxPagePatch = 4 << 20
)

func IssueNotFound(what string) error {
	return usererr.Missingf("there is no issue or pull request #%s", what)
}

// forkParents are the repositories base was forked from that viewer may
// read, nearest first; the walk stops at one it may not read or that is
// gone.
func (a *API) forkParents(ctx context.Context, viewer common.Address, base index.Repo) []index.Repo {
	var out []index.Repo
	for id := base.ForkOf; id != 0 && len(out) < maxForkDepth; {
		p, _, err := a.Forge.RepoByID(ctx, viewer, id)
		if err != nil || p.ID == base.ID {
			break
		}
		out = append(out, p)
		id = p.ForkOf
	}
	return out
}

func headInvalid(format string, args ...any) error {
	return usererr.BadFieldf("head", format, args...)
}

// maxForkDepth bounds the walk up a chain of forks.
const maxForkDepth = 16
