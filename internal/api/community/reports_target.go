package community

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/moderation"
	"github.com/dforge/dforge/internal/usererr"
)

// A report's target, as the client names it:
//   - user: a username or a wallet address;
//   - repository: "owner/name";
//   - issue: "owner/name#number" (an issue or a pull request);
//   - comment: "owner/name/comments/id";
//   - forum_post: a forum reply's id.
//
// targetResolvers resolves each kind with the reporter's eyes, so
// anything they cannot read is a 404 exactly as if it did not exist. A
// new kind adds a line here and one to moderation.Kinds.
var targetResolvers = map[moderation.Kind]func(a *Handler, r *http.Request, target string) (moderation.Target, error){
	moderation.KindUser:       (*Handler).reportedUser,
	moderation.KindRepository: (*Handler).reportedRepo,
	moderation.KindIssue:      (*Handler).reportedIssue,
	moderation.KindComment:    (*Handler).reportedComment,
	moderation.KindForumPost:  (*Handler).reportedForumPost,
}

// maxTarget bounds a target's text: a name, an address or a path.
const maxTarget = 300

func (a *Handler) reportTarget(r *http.Request, kind, target string) (moderation.Target, error) {
	if kind == "" {
		return moderation.Target{}, usererr.Unprocessablef("kind", usererr.CodeRequired, "kind is required: user, repository, issue, comment or forum_post")
	}
	k, ok := moderation.ParseKind(kind)
	resolve := targetResolvers[k]
	if !ok || resolve == nil {
		return moderation.Target{}, badKind("kind", kind)
	}
	if target == "" {
		return moderation.Target{}, usererr.Unprocessablef("target", usererr.CodeRequired, "target is required: what you report")
	}
	if len(target) > maxTarget || tx.CheckLine("target", target) != nil {
		return moderation.Target{}, usererr.BadFieldf("target", "target is not a %s's name", kind)
	}
	if a.Forge == nil && k != moderation.KindUser {
		return moderation.Target{}, usererr.Missingf("there is no such %s on this node", kind)
	}
	return resolve(a, r, target)
}

func (a *Handler) reportedUser(r *http.Request, target string) (moderation.Target, error) {
	missing := usererr.Missingf("there is no user %q", target)
	if common.IsHexAddress(target) {
		addr := common.HexToAddress(target)
		if a.Index == nil {
			return moderation.Target{}, missing
		}
		name, err := a.Index.Username(r.Context(), addr)
		if err != nil || name == "" {
			return moderation.Target{}, missing
		}
		return moderation.Target{Kind: moderation.KindUser, Key: moderation.UserKey(addr), Label: name, Subject: addr}, nil
	}
	if a.Auth == nil {
		return moderation.Target{}, missing
	}
	u, err := a.Auth.UserByName(r.Context(), target)
	if err != nil {
		if _, ok := usererr.As(err); ok {
			return moderation.Target{}, missing
		}
		return moderation.Target{}, err
	}
	name := u.Username
	if name == "" {
		name = target
	}
	return moderation.Target{Kind: moderation.KindUser, Key: moderation.UserKey(u.Address), Label: name, Subject: u.Address}, nil
}

// readableRepo resolves "owner/name" for the reporter: 404 when they
// cannot read it.
func (a *Handler) readableRepo(r *http.Request, full string) (index.Repo, error) {
	owner, name, ok := strings.Cut(full, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return index.Repo{}, usererr.BadFieldf("target", "a repository is named owner/name")
	}
	repo, _, err := a.Hosting.Repo(r.Context(), api.ViewerOf(r), owner, name)
	if err != nil {
		if _, ok := usererr.As(err); ok {
			return index.Repo{}, usererr.Missingf("there is no repository %s", full)
		}
		return index.Repo{}, err
	}
	return repo, nil
}

func (a *Handler) reportedRepo(r *http.Request, target string) (moderation.Target, error) {
	repo, err := a.readableRepo(r, target)
	if err != nil {
		return moderation.Target{}, err
	}
	return moderation.Target{Kind: moderation.KindRepository, Key: moderation.RepoKey(repo.ID),
		Label: repo.Owner.Username + "/" + repo.Name, Subject: common.HexToAddress(repo.Owner.Address)}, nil
}

func (a *Handler) reportedIssue(r *http.Request, target string) (moderation.Target, error) {
	full, num, ok := strings.Cut(target, "#")
	n, err := strconv.ParseUint(num, 10, 64)
	if !ok || err != nil || n == 0 {
		return moderation.Target{}, usererr.BadFieldf("target", "an issue is named owner/name#number")
	}
	repo, err := a.readableRepo(r, full)
	if err != nil {
		return moderation.Target{}, err
	}
	is, err := a.Forge.Index().Issue(r.Context(), repo.ID, n)
	if err != nil {
		if _, ok := usererr.As(err); ok {
			return moderation.Target{}, api.IssueNotFound(num)
		}
		return moderation.Target{}, err
	}
	return moderation.Target{Kind: moderation.KindIssue, Key: moderation.IssueKey(repo.ID, is.Number),
		Label: repo.Owner.Username + "/" + repo.Name + "#" + num, Subject: common.HexToAddress(is.Author.Address)}, nil
}

func (a *Handler) reportedComment(r *http.Request, target string) (moderation.Target, error) {
	full, raw, ok := strings.Cut(target, "/comments/")
	id, err := strconv.ParseUint(raw, 10, 64)
	if !ok || err != nil || id == 0 {
		return moderation.Target{}, usererr.BadFieldf("target", "a comment is named owner/name/comments/id")
	}
	repo, err := a.readableRepo(r, full)
	if err != nil {
		return moderation.Target{}, err
	}
	c, err := a.Forge.Index().CommentByID(r.Context(), repo.ID, id)
	if err != nil {
		if _, ok := usererr.As(err); ok {
			return moderation.Target{}, usererr.Missingf("there is no comment %d in %s", id, full)
		}
		return moderation.Target{}, err
	}
	return moderation.Target{Kind: moderation.KindComment, Key: moderation.CommentKey(repo.ID, c.ID),
		Label:   repo.Owner.Username + "/" + repo.Name + "#" + strconv.FormatUint(c.Number, 10) + " comment " + raw,
		Subject: common.HexToAddress(c.Author.Address)}, nil
}

func (a *Handler) reportedForumPost(r *http.Request, target string) (moderation.Target, error) {
	id, err := strconv.ParseUint(target, 10, 63)
	if err != nil || id == 0 {
		return moderation.Target{}, usererr.BadFieldf("target", "a forum reply is named by its id")
	}
	p, err := a.Forge.Index().Forum().PostByID(r.Context(), id)
	if err != nil {
		return moderation.Target{}, err
	}
	t, err := a.Forge.Index().Forum().TopicByID(r.Context(), p.Topic)
	if err != nil {
		return moderation.Target{}, err
	}
	return moderation.Target{Kind: moderation.KindForumPost, Key: moderation.ForumPostKey(p.ID),
		Label: "forum: " + t.Title + " (reply " + target + ")", Subject: common.HexToAddress(p.Author.Address)}, nil
}
