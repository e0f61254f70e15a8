package api

import (
	"fmt"
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/api/itemjson"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/moderation"
)

// What a page's viewer sees of this node's moderation: content the
// moderators hid shows as hidden, with their reason, in the one place each
// shape is built (links.issue, links.comment, repoJSON, the user reads);
// the node's admins still see it, flagged. Lookups are map reads
// (moderation keeps the list in memory), so lists make no query per row.

// HiddenMarker stands in for hidden text.
const HiddenMarker = "[hidden by this node's moderators]"

// ModView is the hidden list as one request's viewer sees it.
type ModView struct {
	mod   *moderation.Service // nil: nothing is hidden
	Admin bool                // the viewer is one of the node's admins: sees hidden content
}

func (a *API) ModViewOf(r *http.Request) ModView {
	v := ViewerOf(r)
	return ModView{mod: a.Mod, Admin: v != (common.Address{}) && a.isAdmin(v)}
}

// key names what the view masks with, for an answer kept for later: the
// viewer's admin standing and the hidden list's version.
func (v ModView) key() string {
	if v.mod == nil {
		return "none"
	}
	return fmt.Sprintf("%t:%d", v.Admin, v.mod.Version())
}

// Hidden tells whether the item is hidden on this node, and why.
func (v ModView) Hidden(kind moderation.Kind, key string) (string, bool) {
	if v.mod == nil {
		return "", false
	}
	h, ok := v.mod.IsHidden(kind, key)
	return h.Reason, ok
}

// hiddenKey writes into an item's key what the view masks the item with:
// whether it is hidden, why, and whether the viewer is an admin.
func (v ModView) hiddenKey(k *itemjson.Key, kind moderation.Kind, key string) {
	reason, hidden := v.Hidden(kind, key)
	k.Bool(hidden)
	k.Str(reason)
	k.Bool(v.Admin)
}

// maskIssue marks a hidden issue or pull request, and hides its text from
// everyone but the admins.
func (v ModView) maskIssue(repo, number uint64, j *IssueJSON) {
	reason, ok := v.Hidden(moderation.KindIssue, moderation.IssueKey(repo, number))
	if !ok {
		return
	}
	j.Hidden, j.HiddenReason = true, reason
	if !v.Admin {
		j.Title, j.Body, j.BodyHTML = HiddenMarker, HiddenMarker, ""
	}
}

// maskComment is maskIssue for a comment.
func (v ModView) maskComment(repo, id uint64, j *CommentJSON) {
	reason, ok := v.Hidden(moderation.KindComment, moderation.CommentKey(repo, id))
	if !ok {
		return
	}
	j.Hidden, j.HiddenReason = true, reason
	if !v.Admin {
		j.Body, j.BodyHTML = HiddenMarker, ""
	}
}

// MaskText is the hidden flag, the reason and the text (body, html) of
// an item as the viewer sees it.
func (v ModView) MaskText(kind moderation.Kind, key, body, html string) (bool, string, string, string) {
	reason, ok := v.Hidden(kind, key)
	if !ok {
		return false, "", body, html
	}
	if !v.Admin {
		body, html = HiddenMarker, ""
	}
	return true, reason, body, html
}

// maskRepo marks a hidden repository and hides its description.
func (v ModView) maskRepo(j *RepoJSON) {
	reason, ok := v.Hidden(moderation.KindRepository, moderation.RepoKey(j.ID))
	if !ok {
		return
	}
	j.Hidden, j.HiddenReason = true, reason
	if !v.Admin {
		j.Description, j.Website = HiddenMarker, ""
	}
}

// maskUser marks a hidden user and hides their profile text.
func (v ModView) maskUser(addr common.Address, j *UserJSON) {
	reason, ok := v.Hidden(moderation.KindUser, moderation.UserKey(addr))
	if !ok {
		return
	}
	j.Hidden, j.HiddenReason = true, reason
	if !v.Admin {
		j.FullName, j.Description, j.Website, j.Location = "", HiddenMarker, "", ""
	}
}

// listed tells whether a repository belongs in a list the viewer sees:
// Hidden ones are left out for everyone but the admins.
func (v ModView) listed(repoID uint64) bool {
	_, hid := v.Hidden(moderation.KindRepository, moderation.RepoKey(repoID))
	return !hid || v.Admin
}

// listedUser is listed for a user: hidden users leave the user search for
// everyone but the admins.
func (v ModView) listedUser(addr common.Address) bool {
	_, hid := v.Hidden(moderation.KindUser, moderation.UserKey(addr))
	return !hid || v.Admin
}

// MaskActivities is list as the viewer sees it: a hidden issue's title
// and a hidden comment's text give way to the marker. It returns a copy,
// since the list may be one the index keeps for every viewer.
func (v ModView) MaskActivities(list []index.Activity) []index.Activity {
	if v.mod == nil || v.Admin {
		return list
	}
	out := make([]index.Activity, len(list))
	for i, it := range list {
		if it.Number != 0 {
			if _, ok := v.Hidden(moderation.KindIssue, moderation.IssueKey(it.Repo.ID, it.Number)); ok {
				it.Title = HiddenMarker
			}
		}
		if it.CommentID != 0 {
			if _, ok := v.Hidden(moderation.KindComment, moderation.CommentKey(it.Repo.ID, it.CommentID)); ok {
				it.Content = HiddenMarker
			}
		}
		out[i] = it
	}
	return out
}

// maskNotification hides a hidden issue's or pull request's title in a
// notification's subject.
func (v ModView) maskNotification(n *index.Notification) {
	if v.Admin || n.Repo == 0 || (n.SubjectType != "Issue" && n.SubjectType != "Pull") {
		return
	}
	if _, ok := v.Hidden(moderation.KindIssue, moderation.IssueKey(n.Repo, n.Number)); ok {
		n.Title = HiddenMarker
	}
}
