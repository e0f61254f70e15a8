// Package moderation is the node's reports and moderation. Anyone signed in
// reports a user, repository, issue or comment; the node's moderators (its
// admins) dismiss a report, hide the content on this node, or stop the
// account from writing through this node. Chain content cannot be
// deleted, so all of it is node-local SQL (migration 00031), never on
// chain: another node keeps its own lists.
//
// The hidden list and the suspensions are read on every page and every
// relayed write, so the service keeps both in memory, loaded at start and
// changed only through it (one process per node): a lookup is a map read,
// never a query per row of a list.
package moderation

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Kind is what a report names.
type Kind string

// The kinds a report may name.
const (
	KindUser       Kind = "user"
	KindRepository Kind = "repository"
	KindIssue      Kind = "issue" // an issue or a pull request
	KindComment    Kind = "comment"
	KindForumPost  Kind = "forum_post" // a reply in a forum topic
)

// Kinds lists every kind, in the order the UI offers them.
var Kinds = []Kind{KindUser, KindRepository, KindIssue, KindComment, KindForumPost}

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, bool) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, true
		}
	}
	return "", false
}

// Reasons are the categories a report picks from.
var Reasons = []string{"spam", "abuse", "illegal", "other"}

// Text limits, in characters.
const (
	MaxDetail = 2000 // a report's free text
	MaxReason = 500  // a moderator's reason for hiding or suspending, shown to others
)

// Report statuses and the actions that resolve one.
const (
	StatusOpen     = "open"
	StatusResolved = "resolved"

	ActionDismissed = "dismissed"
	ActionHidden    = "hidden"
	ActionSuspended = "suspended"
)

// CodeSuspended is the error code of a write refused because its account
// is suspended on this node.
const CodeSuspended = "suspended"

// Target is what a report names, resolved by the caller (who checks that
// the reporter may read it): its kind, its stable key (UserKey, RepoKey,
// IssueKey, CommentKey), a label people read ("ada/tools#3") and the
// account whose content it is, whom a suspension stops.
type Target struct {
	Kind    Kind
	Key     string
	Label   string
	Subject common.Address
}

// UserKey, RepoKey, IssueKey and CommentKey are the stable keys of the
// targets: ids, not names, so a rename keeps a hidden item hidden.
func UserKey(a common.Address) string { return strings.ToLower(a.Hex()) }
func RepoKey(id uint64) string        { return strconv.FormatUint(id, 10) }
func ForumPostKey(id uint64) string   { return strconv.FormatUint(id, 10) }
func IssueKey(repo, number uint64) string {
	return strconv.FormatUint(repo, 10) + ":" + strconv.FormatUint(number, 10)
}
func CommentKey(repo, comment uint64) string {
	return strconv.FormatUint(repo, 10) + ":" + strconv.FormatUint(comment, 10)
}

// Hidden is an item hidden on this node, with the reason others see.
type Hidden struct {
	Kind    Kind
	Key     string
	Label   string
	Reason  string
	By      common.Address
	Created time.Time
	// Deleted: the repository's admins deleted it (an issue, through
	// Gitea's DELETE): it is 404 on this node to all but the node's admins.
	Deleted bool
}

// Suspension stops an account from writing through this node.
type Suspension struct {
	Address common.Address
	Reason  string
	By      common.Address
	Created time.Time
}

type hiddenKey struct {
	kind Kind
	key  string
}

// Service files reports and keeps the hidden list and the suspensions.
type Service struct {
	db  *sql.DB
	now func() time.Time

	mu        sync.RWMutex
	hidden    map[hiddenKey]Hidden
	suspended map[common.Address]Suspension
	// version moves on with every change of the hidden list, so an answer
	// kept for later (a cached dashboard) can name the list it masked with.
	version uint64
}

// New returns the service over st, with the hidden list and the
// suspensions loaded.
func New(ctx context.Context, st *store.Store) (*Service, error) {
	s := &Service{db: st.DB(), now: time.Now, hidden: map[hiddenKey]Hidden{}, suspended: map[common.Address]Suspension{}}
	if err := s.load(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Service) load(ctx context.Context) error {
	hidden, err := s.queryHidden(ctx, "", 0, 0)
	if err != nil {
		return fmt.Errorf("load the hidden list: %w", err)
	}
	susp, err := s.querySuspensions(ctx)
	if err != nil {
		return fmt.Errorf("load the suspensions: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range hidden {
		s.hidden[hiddenKey{h.Kind, h.Key}] = h
	}
	for _, sp := range susp {
		s.suspended[sp.Address] = sp
	}
	return nil
}

// Version names the current hidden list: it changes whenever an item is
// hidden or shown again.
func (s *Service) Version() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.version
}

// IsHidden tells whether the item is hidden on this node, and why.
func (s *Service) IsHidden(kind Kind, key string) (Hidden, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	h, ok := s.hidden[hiddenKey{kind, key}]
	return h, ok
}

// Suspended tells whether addr may not write through this node.
func (s *Service) Suspended(addr common.Address) (Suspension, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sp, ok := s.suspended[addr]
	return sp, ok
}

// CheckWriter refuses, with code suspended (403), a write by an account
// this node's moderators suspended: the one check every write this node
// relays goes through (the forge service, the chain relay, git pushes).
func (s *Service) CheckWriter(ctx context.Context, addr common.Address) error {
	if _, ok := s.Suspended(addr); ok {
		return ErrSuspended()
	}
	return nil
}

// ErrSuspended is the refusal of a suspended account's write.
func ErrSuspended() *usererr.Error {
	return usererr.New(usererr.Forbidden, CodeSuspended,
		"this account is suspended on this node: its moderators stopped it from writing here (reading still works)")
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}
