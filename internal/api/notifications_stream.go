package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/dforge/dforge/internal/api/itemjson"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// The JSON shapes of notifications (Gitea's NotificationThread and
// NotificationSubject, plus dForge's reason and transfer amount), and the
// badge's live stream.

type notificationSubjectJSON struct {
	Title                string `json:"title"`
	URL                  string `json:"url"`
	HTMLURL              string `json:"html_url"`
	LatestCommentURL     string `json:"latest_comment_url"`
	LatestCommentHTMLURL string `json:"latest_comment_html_url"`
	Type                 string `json:"type"`
	State                string `json:"state"`
}

type notificationRewardJSON struct {
	Kind     string `json:"kind"`
	Withheld int64  `json:"withheld"`
	Reason   string `json:"reason"`
}

type NewNotificationsJSON struct {
	New int64 `json:"new"`
}

// notifyRepo is the repository as the viewer sees it; nil when they
// cannot read it.
func (a *API) notifyRepo(r *http.Request, id uint64) *RepoJSON {
	if a.Forge == nil {
		return nil
	}
	rec, perm, err := a.Forge.RepoByID(r.Context(), ViewerOf(r), id)
	if err != nil {
		return nil
	}
	j := a.RepoJSON(r, rec, perm)
	return &j
}

// ThreadJSON shapes one thread; repo is its repository's JSON, or nil to
// read it.
func (a *API) ThreadJSON(r *http.Request, n index.Notification, repo *RepoJSON) notificationThreadJSON {
	a.ModViewOf(r).maskNotification(&n) // n is a copy
	base := SiteURL(r)
	j := notificationThreadJSON{
		ID: n.ID, Unread: n.Unread, Pinned: n.Pinned, UpdatedAt: time.Unix(0, n.UpdatedNS).UTC(),
		URL:     base + "/api/v1/notifications/threads/" + strconv.FormatInt(n.ID, 10),
		Subject: notificationSubjectJSON{Title: n.Title, Type: n.SubjectType, State: n.State},
		Reason:  n.Reason, Actor: n.Actor, Amount: n.Amount,
	}
	switch {
	case n.SubjectType == "Message": // a direct message: its conversation
		num := strconv.FormatUint(n.Number, 10)
		j.Subject.URL = base + "/api/v1/messages/conversations/" + num
		j.Subject.HTMLURL = base + "/messages/" + num
		return j
	case n.SubjectType == "Ticket": // a support ticket (node-local)
		num := strconv.FormatUint(n.Number, 10)
		j.Subject.URL, j.Subject.HTMLURL = base+"/api/v1/user/tickets/"+num, base+"/help/tickets/"+num
		return j
	case n.SubjectType == index.SubjectReward:
		j.Subject.URL = base + "/api/v1/rewards"
		j.Subject.HTMLURL = base + "/rewards"
		if n.Reward != nil {
			j.Reward = &notificationRewardJSON{Kind: n.Reward.Kind, Withheld: n.Reward.Withheld, Reason: n.Reward.Reason}
		}
		return j
	case n.SubjectType == index.SubjectTopic: // a forum topic; CommentID is the reply
		id := strconv.FormatUint(n.Number, 10)
		j.Subject.URL = base + "/api/v1/forum/topics/" + id
		j.Subject.HTMLURL = base + "/forum/topic/" + id
		if n.CommentID != 0 {
			c := strconv.FormatUint(n.CommentID, 10)
			j.Subject.LatestCommentURL = base + "/api/v1/forum/posts/" + c
			j.Subject.LatestCommentHTMLURL = j.Subject.HTMLURL + "#post-" + c
		}
		return j
	case n.SubjectType == index.SubjectProposal:
		id := strconv.FormatUint(n.Number, 10)
		j.Subject.URL = base + "/api/v1/governance/proposals/" + id
		j.Subject.HTMLURL = base + "/governance/" + id
		return j
	case n.SubjectType == index.SubjectRepository: // a repository offered: the repository itself
		if repo == nil {
			repo = a.notifyRepo(r, n.Repo)
		}
		if repo != nil {
			j.Repository = repo
			j.Subject.URL, j.Subject.HTMLURL = repo.URL, repo.HTMLURL
		}
		return j
	case n.Repo == 0: // a transfer: its transaction
		j.Subject.URL = base + "/api/v1/chain/txs/" + n.Title
		j.Subject.HTMLURL = base + "/explorer/tx/" + n.Title
		return j
	}
	if repo == nil {
		repo = a.notifyRepo(r, n.Repo)
	}
	if repo == nil {
		return j
	}
	j.Repository = repo
	kind := "issues"
	if n.SubjectType == "Pull" {
		kind = "pulls"
	}
	num := strconv.FormatUint(n.Number, 10)
	j.Subject.URL = repo.URL + "/" + kind + "/" + num
	j.Subject.HTMLURL = repo.HTMLURL + "/" + kind + "/" + num
	if n.CommentID != 0 {
		c := strconv.FormatUint(n.CommentID, 10)
		j.Subject.LatestCommentURL = repo.URL + "/issues/comments/" + c
		j.Subject.LatestCommentHTMLURL = j.Subject.HTMLURL + "#issuecomment-" + c
	}
	return j
}

// Bounds of the badge's stream.
const (
	maxNotifyStreams = 512
	// StreamHeartbeat keeps proxies from closing an idle stream.
	StreamHeartbeat = 20 * time.Second
)

// NotifyStreams bounds the open streams across the node.
var NotifyStreams = make(chan struct{}, maxNotifyStreams)

// OpenStream takes one of the node's stream slots and starts a
// server-sent event stream on w; release gives the slot back. With every
// slot taken it answers 503, telling the client to poll instead.
func OpenStream(w http.ResponseWriter, poll string) (rc *http.ResponseController, release func(), err error) {
	select {
	case NotifyStreams <- struct{}{}:
	default:
		return nil, nil, usererr.New(usererr.Unavailable, "too_many_streams", "this node serves too many live streams; poll "+poll+" instead")
	}
	rc = http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{}) // the stream outlives the server's write timeout
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return rc, func() { <-NotifyStreams }, nil
}

type notificationThreadJSON struct {
	ID         int64                   `json:"id"`
	Repository *RepoJSON               `json:"repository"`
	Subject    notificationSubjectJSON `json:"subject"`
	Unread     bool                    `json:"unread"`
	Pinned     bool                    `json:"pinned"`
	UpdatedAt  time.Time               `json:"updated_at"`
	URL        string                  `json:"url"`
	// Reason is why the user has the thread (mention, review_requested,
	// assign, author, review, participating, subscribed, transfer,
	// repo_transfer (a repository offered to you), tip,
	// reward, reward_withheld, proposal_opened, proposal_ending); Actor who
	// acted last; Amount a transfer's or what a reward paid, in
	// micro-units.
	Reason string `json:"reason"`
	Actor  string `json:"actor"`
	Amount int64  `json:"amount,omitempty"`
	// Reward is a Reward thread's contribution kind, and what was
	// withheld and why.
	Reward *notificationRewardJSON `json:"reward,omitempty"`
}

// ThreadsJSON shapes a list, reading each repository once. A thread whose
// repository the user can no longer read is left out.
func (a *API) ThreadsJSON(r *http.Request, list []index.Notification) []notificationThreadJSON {
	repos := map[uint64]*RepoJSON{}
	out := make([]notificationThreadJSON, 0, len(list))
	for _, n := range list {
		if n.Repo != 0 {
			if _, ok := repos[n.Repo]; !ok {
				repos[n.Repo] = a.notifyRepo(r, n.Repo)
			}
			if repos[n.Repo] == nil {
				continue
			}
		}
		out = append(out, a.ThreadJSON(r, n, repos[n.Repo]))
	}
	return out
}

// ThreadItems is list as ThreadsJSON shapes it, encoded: each thread is
// kept (itemjson) by its fields and its repository's key (RepoItem), and
// each repository apart, so a page read again encodes only the threads,
// and the repositories, that changed.
func (a *API) ThreadItems(r *http.Request, list []index.Notification) (EncodedJSON[[]notificationThreadJSON], error) {
	repos := map[uint64]*RepoItem{} // nil: the user cannot read it
	mv := a.ModViewOf(r)
	items := make([][]byte, 0, len(list))
	var k itemjson.Key
	for _, n := range list {
		var repo *RepoItem
		if n.Repo != 0 {
			var seen bool
			if repo, seen = repos[n.Repo]; !seen {
				var err error
				if repo, err = a.RepoItemOf(r, n.Repo); err != nil {
					return nil, err
				}
				repos[n.Repo] = repo
			}
			if repo == nil {
				continue
			}
		}
		mv.maskNotification(&n)
		k.Reset()
		threadKey(r, &k, n, repo.KeyOf())
		b, err := a.items.Keep(&k, func() ([]byte, error) { return a.encodeThread(r, n, repo) })
		if err != nil {
			return nil, fmt.Errorf("encode thread %d: %w", n.ID, err)
		}
		items = append(items, b)
	}
	return EncodedJSON[[]notificationThreadJSON](itemjson.Array(items)), nil
}

// encodeThread is ThreadJSON(r, n, repo) encoded. The repository is most
// of a thread's bytes, so the thread is encoded without it and the
// repository's kept JSON is put in its place: equal bytes, as the kept
// JSON is that of the same repository's shape.
func (a *API) encodeThread(r *http.Request, n index.Notification, repo *RepoItem) ([]byte, error) {
	j := a.ThreadJSON(r, n, repo.Shape(a, r))
	if repo == nil || j.Repository == nil {
		return json.Marshal(j)
	}
	j.Repository = nil
	b, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	const none = `"repository":null`
	at := bytes.Index(b, []byte(none))
	if at < 0 {
		return nil, fmt.Errorf("thread %d encoded without its repository's place", n.ID)
	}
	at += len(none) - len("null")
	return slices.Concat(b[:at], repo.JSON, b[at+len("null"):]), nil
}

// threadKey writes into k everything ThreadJSON(r, n, repo) is made
// from: the site's URL, every field of n, masked as the viewer sees it,
// and its repository's key (RepoItem.Key; nil: none).
// TestThreadKeyHoldsEveryField changes each field of n and checks that
// the key changes.
func threadKey(r *http.Request, k *itemjson.Key, n index.Notification, repoKey []byte) {
	k.Str("thread")
	k.Str(SiteURL(r))
	k.Int(n.ID)
	k.Uint(n.Repo)
	k.Uint(n.Number)
	k.Str(n.SubjectType)
	k.Str(n.Reason)
	k.Str(n.Title)
	k.Str(n.Actor)
	k.Uint(n.CommentID)
	k.Int(n.Amount)
	k.Bool(n.Unread)
	k.Bool(n.Pinned)
	k.Int(n.Height)
	k.Int(n.UpdatedNS)
	k.Str(n.State)
	k.Bool(n.Reward != nil)
	if w := n.Reward; w != nil {
		k.Str(w.Kind)
		k.Int(w.Withheld)
		k.Str(w.Reason)
	}
	k.Bool(repoKey != nil)
	k.Blob(repoKey)
}

// UnreadCount is the badge's number: unread threads the preferences show.
func (a *API) UnreadCount(r *http.Request, id *auth.Identity) (int64, error) {
	hidden, err := a.HiddenReasons(r, id)
	if err != nil {
		return 0, err
	}
	return a.Index.CountNotifications(r.Context(), index.NotificationFilter{User: id.User.Address, Statuses: []string{"unread"}, HideReasons: hidden, PublicOnly: id.PublicOnly()})
}
