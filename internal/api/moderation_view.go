package api

import (
	"fmt"
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/moderation"
)

// What a page's viewer sees of this node's moderation: content the
// moderators hid shows as hidden, with their reason, in the one place each
// shape is built (links.issue, links.comment, repoJSON, the user reads);
// the node's admins still see it, flagged. Lookups are map reads
// (moderation keeps the list in memory), so lists make no query per row.

// hiddenMarker stands in for hidden text.
const hiddenMarker = "[hidden by this node's moderators]"

// modView is the hidden list as one request's viewer sees it.
type modView struct {
	mod   *moderation.Service // nil: nothing is hidden
	admin bool                // the viewer is one of the node's admins: sees hidden content
}

func (a *API) modViewOf(r *http.Request) modView {
	v := ViewerOf(r)
	return modView{mod: a.mod, admin: v != (common.Address{}) && a.isAdmin(v)}
}

// key names what the view masks with, for an answer kept for later: the
// viewer's admin standing and the hidden list's version.
func (v modView) key() string {
	if v.mod == nil {
		return "none"
	}
	return fmt.Sprintf("%t:%d", v.admin, v.mod.Version())
}

// hidden tells whether the item is hidden on this node, and why.
func (v modView) hidden(kind moderation.Kind, key string) (string, bool) {
	if v.mod == nil {
		return "", false
	}
	h, ok := v.mod.IsHidden(kind, key)
	return h.Reason, ok
}

// maskIssue marks a hidden issue or pull request, and hides its text from
// everyone but the admins.
func (v modView) maskIssue(repo, number uint64, j *issueJSON) {
	reason, ok := v.hidden(moderation.KindIssue, moderation.IssueKey(repo, number))
	if !ok {
		return
	}
	j.Hidden, j.HiddenReason = true, reason
	if !v.admin {
		j.Title, j.Body, j.BodyHTML = hiddenMarker, hiddenMarker, ""
	}
}

// maskComment is maskIssue for a comment.
func (v modView) maskComment(repo, id uint64, j *commentJSON) {
	reason, ok := v.hidden(moderation.KindComment, moderation.CommentKey(repo, id))
	if !ok {
		return
	}
	j.Hidden, j.HiddenReason = true, reason
	if !v.admin {
		j.Body, j.BodyHTML = hiddenMarker, ""
	}
}

// maskText is the hidden flag, the reason and the text (body, html) of
// an item as the viewer sees it.
func (v modView) maskText(kind moderation.Kind, key, body, html string) (bool, string, string, string) {
	reason, ok := v.hidden(kind, key)
	if !ok {
		return false, "", body, html
	}
	if !v.admin {
		body, html = hiddenMarker, ""
	}
	return true, reason, body, html
}

// maskForumPost is maskComment for a forum reply.
func (v modView) maskForumPost(j *forumPostJSON) {
	j.Hidden, j.HiddenReason, j.Body, j.BodyHTML = v.maskText(moderation.KindForumPost, moderation.ForumPostKey(j.ID), j.Body, j.BodyHTML)
}

// maskRepo marks a hidden repository and hides its description.
func (v modView) maskRepo(j *repoJSON) {
	reason, ok := v.hidden(moderation.KindRepository, moderation.RepoKey(j.ID))
	if !ok {
		return
	}
	j.Hidden, j.HiddenReason = true, reason
	if !v.admin {
		j.Description, j.Website = hiddenMarker, ""
	}
}

// maskUser marks a hidden user and hides their profile text.
func (v modView) maskUser(addr common.Address, j *userJSON) {
	reason, ok := v.hidden(moderation.KindUser, moderation.UserKey(addr))
	if !ok {
		return
	}
	j.Hidden, j.HiddenReason = true, reason
	if !v.admin {
		j.FullName, j.Description, j.Website, j.Location = "", hiddenMarker, "", ""
	}
}

// listed tells whether a repository belongs in a list the viewer sees:
// hidden ones are left out for everyone but the admins.
func (v modView) listed(repoID uint64) bool {
	_, hid := v.hidden(moderation.KindRepository, moderation.RepoKey(repoID))
	return !hid || v.admin
}

// listedUser is listed for a user: hidden users leave the user search for
// everyone but the admins.
func (v modView) listedUser(addr common.Address) bool {
	_, hid := v.hidden(moderation.KindUser, moderation.UserKey(addr))
	return !hid || v.admin
}

// maskActivities is list as the viewer sees it: a hidden issue's title
// and a hidden comment's text give way to the marker. It returns a copy,
// since the list may be one the index keeps for every viewer.
func (v modView) maskActivities(list []index.Activity) []index.Activity {
	if v.mod == nil || v.admin {
		return list
	}
	out := make([]index.Activity, len(list))
	for i, it := range list {
		if it.Number != 0 {
			if _, ok := v.hidden(moderation.KindIssue, moderation.IssueKey(it.Repo.ID, it.Number)); ok {
				it.Title = hiddenMarker
			}
		}
		if it.CommentID != 0 {
			if _, ok := v.hidden(moderation.KindComment, moderation.CommentKey(it.Repo.ID, it.CommentID)); ok {
				it.Content = hiddenMarker
			}
		}
		out[i] = it
	}
	return out
}

// maskNotification hides a hidden issue's or pull request's title in a
// notification's subject.
func (v modView) maskNotification(n *index.Notification) {
	if v.admin || n.Repo == 0 || (n.SubjectType != "Issue" && n.SubjectType != "Pull") {
		return
	}
	if _, ok := v.hidden(moderation.KindIssue, moderation.IssueKey(n.Repo, n.Number)); ok {
		n.Title = hiddenMarker
	}
}
