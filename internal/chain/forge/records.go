package forge

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/rewards"
	"github.com/dforge/dforge/internal/chain/state"
)

// Issue and pull request states, and the reasons an issue is closed.
const (
	StateOpen   = "open"
	StateClosed = "closed"

	ReasonCompleted  = "completed"
	ReasonNotPlanned = "not_planned"
	ReasonMerged     = "merged" // a pull request closed by its merge
)

// Repo is a repository. Names are unique per owner without regard to
// case; ids are never reused, so git data is kept by id.
type Repo struct {
	ID            uint64         `json:"id"`
	Owner         common.Address `json:"owner"`
	Name          string         `json:"name"`
	Description   string         `json:"description"`
	DefaultBranch string         `json:"defaultBranch"`
	// ProtectedBranches refuse force-pushes and deletion. A new repository
	// protects its default branch.
	ProtectedBranches []string `json:"protectedBranches"`
	Private           bool     `json:"private"`
	ForkOf            uint64   `json:"forkOf,omitempty"`
	Deleted           bool     `json:"deleted,omitempty"`
	// The counters the projection shows, kept here so every node agrees.
	Stars      uint64 `json:"stars"`
	Forks      uint64 `json:"forks"`
	Watchers   uint64 `json:"watchers"`
	OpenIssues uint64 `json:"openIssues"`
	OpenPulls  uint64 `json:"openPulls"`
	// Contributors counts the distinct accounts that pushed to it or had a
	// pull request merged into it (a reward rule reads it).
	Contributors uint64 `json:"contributors,omitempty"`
	// LastNumber is the last issue or pull request number given.
	LastNumber    uint64 `json:"lastNumber"`
	CreatedHeight uint64 `json:"createdHeight"`
	UpdatedHeight uint64 `json:"updatedHeight"`
	// Topics are its Gitea topics, sorted (repo.topics); none on most.
	Topics []string `json:"topics,omitempty"`
	// Website is its project site (repo.update), an http(s) URL; "" for
	// none, and then absent, so records from before it encode as they did.
	Website string `json:"website,omitempty"`
}

// Issue is an issue or, with IsPull, the conversation of a pull request.
type Issue struct {
	Repo        uint64           `json:"repo"`
	Number      uint64           `json:"number"`
	IsPull      bool             `json:"isPull"`
	Author      common.Address   `json:"author"`
	Title       string           `json:"title"`
	Body        string           `json:"body"`
	State       string           `json:"state"`
	StateReason string           `json:"stateReason,omitempty"`
	Labels      []uint64         `json:"labels"`
	Assignees   []common.Address `json:"assignees"`
	Comments    uint64           `json:"comments"`
	// Milestone is the milestone it is filed under; 0 for none.
	Milestone uint64 `json:"milestone,omitempty"`
	// ClosedHeight is when it was last closed; 0 while open.
	ClosedHeight  uint64 `json:"closedHeight,omitempty"`
	CreatedHeight uint64 `json:"createdHeight"`
	UpdatedHeight uint64 `json:"updatedHeight"`
}

// Pull is what a pull request adds to its issue: the branches and commits
// compared and, once merged, the merge.
type Pull struct {
	Repo       uint64         `json:"repo"`
	Number     uint64         `json:"number"`
	HeadRepo   uint64         `json:"headRepo"`
	HeadBranch string         `json:"headBranch"`
	BaseBranch string         `json:"baseBranch"`
	HeadSHA    string         `json:"headSha"`
	BaseSHA    string         `json:"baseSha"`
	Merged     bool           `json:"merged"`
	MergeSHA   string         `json:"mergeSha,omitempty"`
	MergeStyle string         `json:"mergeStyle,omitempty"`
	MergedBy   common.Address `json:"mergedBy,omitzero"`
	// MergedHeight is when it was merged; 0 until then.
	MergedHeight uint64 `json:"mergedHeight,omitempty"`
	// Approvers are the reviewers whose latest review approves.
	Approvers []common.Address `json:"approvers,omitempty"`
	// Requested are the open review requests; Dismissed the dismissed
	// reviews a later verdict of their author has not replaced.
	Requested []ReviewRequest   `json:"requested,omitempty"`
	Dismissed []DismissedReview `json:"dismissed,omitempty"`
}

// Comment is a comment on an issue or pull request conversation.
type Comment struct {
	ID     uint64         `json:"id"`
	Repo   uint64         `json:"repo"`
	Number uint64         `json:"number"`
	Author common.Address `json:"author"`
	Body   string         `json:"body"`
	// Edited marks an edit of an existing comment (comment.edit); Deleted
	// its deletion (comment.delete), which carries no body.
	Edited  bool `json:"edited,omitempty"`
	Deleted bool `json:"deleted,omitempty"`
}

// Label is a repository's label.
type Label struct {
	ID          uint64 `json:"id"`
	Repo        uint64 `json:"repo"`
	Name        string `json:"name"`
	Color       string `json:"color"`
	Description string `json:"description"`
	// Exclusive: an issue holds one label of its scope ("kind/bug" and
	// "kind/feature" share "kind"), as Gitea's exclusive labels.
	Exclusive bool `json:"exclusive,omitempty"`
}

// Review is a pull request review with its inline comments.
type Review struct {
	ID        uint64          `json:"id"`
	Repo      uint64          `json:"repo"`
	Number    uint64          `json:"number"`
	Author    common.Address  `json:"author"`
	State     string          `json:"state"`
	Body      string          `json:"body"`
	CommitSHA string          `json:"commitSha"`
	Comments  []ReviewComment `json:"comments"`
}

// ReviewComment is a comment on one line of a pull request's diff. Side
// "new" is the line in the head, "old" in the base.
type ReviewComment struct {
	ID   uint64 `json:"id"`
	Path string `json:"path"`
	Line uint64 `json:"line"`
	Side string `json:"side"`
	Body string `json:"body"`
}

// Collaborator is a user's permission on a repository; PermNone removes it.
type Collaborator struct {
	Repo       uint64         `json:"repo"`
	User       common.Address `json:"user"`
	Permission string         `json:"permission"`
}

// Flag is a star or a watch of a user on a repository.
type Flag struct {
	Repo uint64         `json:"repo"`
	User common.Address `json:"user"`
	On   bool           `json:"on"`
}

// RefUpdate is a pushed ref: old and new are commit ids, all zeros for
// "none" (a ref created or deleted). Manifest is the push's manifest of
// big objects (RepoPush.Manifest), on each of its updates.
type RefUpdate struct {
	ID       uint64 `json:"id"`
	Repo     uint64 `json:"repo"`
	Ref      string `json:"ref"`
	Old      string `json:"old"`
	New      string `json:"new"`
	Forced   bool   `json:"forced"`
	Manifest string `json:"manifest,omitempty"`
}

// Change is what one action did, as records in their new state: the
// event's data, which the index writes as they are (ids and numbers
// included), so the projection needs nothing else from the chain.
type Change struct {
	Action string         `json:"action"`
	Actor  common.Address `json:"actor"`
	Height uint64         `json:"height"`
	// Signer is the key that signed the action and Delegation the
	// delegate key it acted under ("" when the actor signed it): set
	// under the own-keys rules, so anyone can check who did what.
	Signer     string `json:"signer,omitempty"`
	Delegation string `json:"delegation,omitempty"`
	// Repos changed, in full; a deleted one has Deleted set.
	Repos        []Repo        `json:"repos,omitempty"`
	Issue        *Issue        `json:"issue,omitempty"`
	Pull         *Pull         `json:"pull,omitempty"`
	Comment      *Comment      `json:"comment,omitempty"`
	Label        *Label        `json:"label,omitempty"`
	DeletedLabel *Label        `json:"deletedLabel,omitempty"`
	Milestone    *Milestone    `json:"milestone,omitempty"`
	Reaction     *Reaction     `json:"reaction,omitempty"`
	Pins         *Pins         `json:"pins,omitempty"`
	Subscription *Subscription `json:"subscription,omitempty"`
	// DeletedMilestone is a deleted milestone as it was.
	DeletedMilestone *Milestone `json:"deletedMilestone,omitempty"`
	Review           *Review    `json:"review,omitempty"`
	// Dismissal is a review dismissed or undismissed.
	Dismissal    *Dismissal    `json:"dismissal,omitempty"`
	Collaborator *Collaborator `json:"collaborator,omitempty"`
	Star         *Flag         `json:"star,omitempty"`
	Watch        *Flag         `json:"watch,omitempty"`
	// Refs are a push's ref updates, in the payload's order.
	Refs []RefUpdate `json:"refs,omitempty"`
	// Ref is the one update of a push in events written before Refs.
	Ref *RefUpdate `json:"ref,omitempty"`
	// Manifest is a manifest of big objects recorded after their push.
	Manifest *ManifestRecord `json:"manifest,omitempty"`
	// Release is a release in its new state (Deleted when deleted), with
	// its assets.
	Release *Release `json:"release,omitempty"`
	// LFS are Git LFS objects recorded for the first time.
	LFS []LFSObject `json:"lfs,omitempty"`
	// Status is a commit status set (status.create).
	Status *Status `json:"status,omitempty"`
	// Protection is a branch's rule as set; DeletedProtection the rule
	// branch.unprotect removed.
	Protection        *Protection `json:"protection,omitempty"`
	DeletedProtection *Protection `json:"deletedProtection,omitempty"`
	// ClosedIssues are the issues a merged pull request closed ("fixes #3").
	ClosedIssues []Issue `json:"closedIssues,omitempty"`
	// Orgs are the organizations changed, in full; a deleted one has
	// Deleted set.
	Orgs []Org `json:"orgs,omitempty"`
	// Teams changed, in full; a deleted one has Deleted set.
	Teams       []Team       `json:"teams,omitempty"`
	TeamMembers []TeamMember `json:"teamMembers,omitempty"`
	TeamRepos   []TeamRepo   `json:"teamRepos,omitempty"`
	// Key is an SSH public key added; DeletedKey one removed.
	Key        *Key `json:"key,omitempty"`
	DeletedKey *Key `json:"deletedKey,omitempty"`
	// Contributions is the accepted work the action brings the rewards module.
	Contributions []rewards.Contribution `json:"contributions,omitempty"`
	// Emails is an account's new list of claimed emails (user.emails).
	Emails *EmailClaim `json:"emails,omitempty"`
	// Follow is a follow set or cleared (user.follow, user.unfollow).
	Follow *Follow `json:"follow,omitempty"`
	// CommunityEvent is an event in its new state (event.*); RSVP the
	// answer event.rsvp set.
	CommunityEvent *Event     `json:"communityEvent,omitempty"`
	RSVP           *EventRSVP `json:"rsvp,omitempty"`
	// Listing is a marketplace listing in its new state (Deleted when
	// deleted); Install a listing installed in or removed from a
	// repository.
	Listing *Listing `json:"listing,omitempty"`
	Install *Install `json:"install,omitempty"`
	// ForumTopic and ForumPost are a forum topic and post in their new
	// state; ForumRevision the text an edit replaced (forum.go).
	ForumTopic    *ForumTopic    `json:"forumTopic,omitempty"`
	ForumPost     *ForumPost     `json:"forumPost,omitempty"`
	ForumRevision *ForumRevision `json:"forumRevision,omitempty"`
	// Transfer is a repository transfer offered, accepted, rejected or
	// cancelled (pending-transfers; transfer.go).
	Transfer *Transfer `json:"transfer,omitempty"`
}

// RepoID is the repository the change is about (the new one for a fork).
func (c Change) RepoID() uint64 {
	// Before Repos: removing a collaborator may delete their forks.
	if c.Collaborator != nil {
		return c.Collaborator.Repo
	}
	if len(c.Repos) > 0 {
		return c.Repos[0].ID
	}
	switch {
	case c.Issue != nil:
		return c.Issue.Repo
	case c.Label != nil:
		return c.Label.Repo
	case c.DeletedLabel != nil:
		return c.DeletedLabel.Repo
	case c.Milestone != nil:
		return c.Milestone.Repo
	case c.Comment != nil:
		return c.Comment.Repo
	case c.Reaction != nil:
		return c.Reaction.Repo
	case c.Pins != nil:
		return c.Pins.Repo
	case c.Subscription != nil:
		return c.Subscription.Repo
	case c.DeletedMilestone != nil:
		return c.DeletedMilestone.Repo
	case len(c.Refs) > 0:
		return c.Refs[0].Repo
	case c.Ref != nil:
		return c.Ref.Repo
	case c.Manifest != nil:
		return c.Manifest.Repo
	case c.Release != nil:
		return c.Release.Repo
	case len(c.LFS) > 0:
		return c.LFS[0].Repo
	case c.Status != nil:
		return c.Status.Repo
	case c.Protection != nil:
		return c.Protection.Repo
	case c.DeletedProtection != nil:
		return c.DeletedProtection.Repo
	case c.Pull != nil:
		// Review requests and dismissals change only the pull request.
		return c.Pull.Repo
	case c.Transfer != nil:
		return c.Transfer.Repo
	}
	return 0
}

// RefUpdates is the push's ref updates, from events of either form.
func (c Change) RefUpdates() []RefUpdate {
	if len(c.Refs) == 0 && c.Ref != nil {
		return []RefUpdate{*c.Ref}
	}
	return c.Refs
}

// State keys. Ids and numbers are 8-byte big-endian, addresses 20 bytes,
// so keys of one kind sort by id.
func u64(n uint64) []byte { return state.Uint64(n) }

func key(parts ...[]byte) []byte {
	k := []byte("forge/")
	for i, p := range parts {
		if i > 0 {
			k = append(k, '/')
		}
		k = append(k, p...)
	}
	return k
}

func seqKey(kind string) []byte { return key([]byte("seq"), []byte(kind)) }
func repoKey(id uint64) []byte  { return key([]byte("repo"), u64(id)) }
func repoNameKey(owner common.Address, lower string) []byte {
	return key([]byte("reponame"), owner.Bytes(), []byte(lower))
}
func collabKey(repo uint64, user common.Address) []byte {
	return key([]byte("collab"), u64(repo), user.Bytes())
}
func flagKey(kind string, repo uint64, user common.Address) []byte {
	return key([]byte(kind), u64(repo), user.Bytes())
}
func issueKey(repo, number uint64) []byte { return key([]byte("issue"), u64(repo), u64(number)) }
func pullKey(repo, number uint64) []byte  { return key([]byte("pull"), u64(repo), u64(number)) }
func labelKey(id uint64) []byte           { return key([]byte("label"), u64(id)) }
func labelNameKey(repo uint64, lower string) []byte {
	return key([]byte("labelname"), u64(repo), []byte(lower))
}
func refKey(repo uint64, ref string) []byte { return key([]byte("ref"), u64(repo), []byte(ref)) }

// Ref is a ref's value in state: the commit it names.
type Ref struct {
	Name string `json:"name"`
	ID   string `json:"id"`
}

// Refs lists repository repo's refs in state, by name; deleted refs are
// not listed.
func Refs(st state.Scanner, repo uint64) ([]Ref, error) {
	prefix := refKey(repo, "")
	var out []Ref
	err := st.Scan(prefix, func(k, v []byte) error {
		if !isNone(v) && !isZeroSHA(string(v)) {
			out = append(out, Ref{Name: string(k[len(prefix):]), ID: string(v)})
		}
		return nil
	})
	return out, err
}

// none marks a released key: the store has no delete, and values must not
// be empty.
var none = []byte{0}

func isNone(v []byte) bool { return v == nil || len(v) == 1 && v[0] == 0 }

func (s *session) getJSON(k []byte, dst any) (bool, error) {
	v, err := s.kv.Get(k)
	if err != nil {
		return false, fmt.Errorf("read %q: %w", k, err)
	}
	if isNone(v) {
		return false, nil
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return false, fmt.Errorf("decode %q: %w", k, err)
	}
	return true, nil
}

func (s *session) putJSON(k []byte, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %q: %w", k, err)
	}
	return s.kv.Set(k, b)
}

func (s *session) getID(k []byte) (uint64, error) {
	v, err := s.kv.Get(k)
	if err != nil {
		return 0, fmt.Errorf("read %q: %w", k, err)
	}
	id, _ := state.ParseUint64(v) // 0 for a missing or released key
	return id, nil
}

// nextID gives the next id of a chain-wide (or store-wide) sequence.
func (s *session) nextID(kind string) (uint64, error) {
	last, err := s.getID(seqKey(kind))
	if err != nil {
		return 0, err
	}
	if last == 0 && s.env.Private {
		last = PrivateIDBase
	}
	next := last + 1
	return next, s.kv.Set(seqKey(kind), u64(next))
}

// repo loads a repository that exists and is not deleted.
func (s *session) repo(id uint64) (*Repo, error) {
	var r Repo
	ok, err := s.getJSON(repoKey(id), &r)
	if err != nil {
		return nil, err
	}
	if !ok || r.Deleted || id == 0 {
		return nil, notFound("repository %d does not exist", id)
	}
	return &r, nil
}

// saveRepo writes r and records it in the change.
func (s *session) saveRepo(r *Repo) error {
	r.UpdatedHeight = s.env.Height
	if err := s.putJSON(repoKey(r.ID), r); err != nil {
		return err
	}
	s.change.Repos = append(s.change.Repos, *r)
	return nil
}

func (s *session) issue(repo, number uint64) (*Issue, error) {
	var is Issue
	ok, err := s.getJSON(issueKey(repo, number), &is)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, notFound("repository %d has no issue or pull request #%d", repo, number)
	}
	return &is, nil
}

// saveIssue writes is and records it in the change. Labels deleted since
// they were set are dropped here, so no record names a dead label.
func (s *session) saveIssue(is *Issue) error {
	is.UpdatedHeight = s.env.Height
	live := make([]uint64, 0, len(is.Labels))
	for _, id := range is.Labels {
		var l Label
		ok, err := s.getJSON(labelKey(id), &l)
		if err != nil {
			return err
		}
		if ok {
			live = append(live, id)
		}
	}
	is.Labels = live
	m, err := s.liveMilestone(is.Repo, is.Milestone)
	if err != nil {
		return err
	}
	is.Milestone = m
	if err := s.putJSON(issueKey(is.Repo, is.Number), is); err != nil {
		return err
	}
	s.change.Issue = is
	return nil
}

func (s *session) pull(repo, number uint64) (*Pull, error) {
	var p Pull
	ok, err := s.getJSON(pullKey(repo, number), &p)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, notFound("repository %d has no pull request #%d", repo, number)
	}
	return &p, nil
}

func (s *session) savePull(p *Pull) error {
	if err := s.putJSON(pullKey(p.Repo, p.Number), p); err != nil {
		return err
	}
	s.change.Pull = p
	return nil
}

func sortStrings(s []string) { slices.Sort(s) }

// IssueOf reads issue or pull request number of repository repo as state
// holds it, for modules that act on issues (bounties). ok is false when
// the repository does not exist (or was deleted) or has no such number;
// private repositories are never in the chain's state, so theirs are
// never found there.
func IssueOf(kv state.Reader, repo, number uint64) (is Issue, ok bool, err error) {
	var r Repo
	found, err := getRecord(kv, repoKey(repo), &r)
	if err != nil || !found || r.Deleted || repo == 0 {
		return Issue{}, false, err
	}
	found, err = getRecord(kv, issueKey(repo, number), &is)
	return is, found, err
}

func getRecord(kv state.Reader, k []byte, dst any) (bool, error) {
	v, err := kv.Get(k)
	if err != nil {
		return false, fmt.Errorf("read %q: %w", k, err)
	}
	if isNone(v) {
		return false, nil
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return false, fmt.Errorf("decode %q: %w", k, err)
	}
	return true, nil
}
