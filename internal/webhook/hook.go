// Package webhook delivers Gitea-shaped webhooks for the forge events this
// node sees committed. A hook (its URL, content type, secret and events)
// is node-local configuration in SQL, never on chain: the node where it
// was set delivers it. Deliveries are queued in the SQL transaction that
// projects their event (index.ForgeObserver), so a crash loses none; a
// worker sends them with retries and keeps a bounded log per hook.
package webhook

import (
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/usererr"
)

// Scope is whose events a hook receives: one repository's, or (RepoID 0)
// every repository of an owner, as an organization's hooks in Gitea.
type Scope struct {
	RepoID uint64
	Owner  common.Address
}

// Hook is a webhook as stored. Secret is write-only: the API never
// returns it.
type Hook struct {
	ID           int64
	Scope        Scope
	URL          string
	Method       string
	ContentType  string // "json" or "form", Gitea's config.content_type
	Secret       string
	Events       []string
	BranchFilter string // a glob on branch names for push, create and delete; "" or "*" for all
	AuthHeader   string // sent as Authorization
	Active       bool
	Created      time.Time
	Updated      time.Time
}

// Events are the hook events a hook may subscribe to: Gitea's names
// (models/webhook), in its order, each of which this node sends. Gitea's
// wiki and package events are left out, as dForge has neither; status is
// the commit status event Gitea added after 1.22.
var Events = []string{
	"create", "delete", "fork", "push", "issues", "issue_assign", "issue_label", "issue_milestone",
	"issue_comment", "pull_request", "pull_request_assign", "pull_request_label", "pull_request_milestone",
	"pull_request_comment", "pull_request_review_approved", "pull_request_review_rejected",
	"pull_request_review_comment", "pull_request_sync", "pull_request_review_request",
	"repository", "release", "status",
}

// neverSent are Gitea's events no dForge node sends: a subscription to
// one is refused by name rather than kept and never delivered.
var neverSent = map[string]string{
	"wiki":    "dForge repositories have no wiki",
	"package": "dForge has no package registry",
}

// Sent keeps of events the ones a hook may subscribe to, in their order:
// a marketplace listing (whose events the chain checks against its own,
// older list) installs a hook for those.
func Sent(events []string) []string {
	out := []string{}
	for _, e := range events {
		if slices.Contains(Events, e) && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// NeverSent says whether event is one of Gitea's that no dForge node sends.
func NeverSent(event string) bool {
	_, ok := neverSent[event]
	return ok
}

// Bounds on what a hook holds.
const (
	maxURL     = 2048
	maxSecret  = 1024
	maxHeader  = 1024
	maxFilter  = 255
	maxHistory = 50 // deliveries kept per hook; older ones are deleted
)

// Input is a hook's settings as a client sends them; nil leaves a
// setting as it is on an edit.
type Input struct {
	URL          *string
	Method       *string
	ContentType  *string
	Secret       *string
	Events       []string // nil: unchanged on an edit, ["push"] on a create
	BranchFilter *string
	AuthHeader   *string
	Active       *bool
}

// apply validates in and writes it over h, naming the field at fault.
func (in Input) apply(h *Hook) error {
	if in.URL != nil {
		if err := checkURL(*in.URL); err != nil {
			return err
		}
		h.URL = *in.URL
	}
	if in.Method != nil {
		m := strings.ToUpper(*in.Method)
		if m == "" {
			m = "POST"
		}
		if m != "POST" && m != "PUT" && m != "PATCH" {
			return usererr.BadFieldf("config.http_method", "http_method must be POST, PUT or PATCH")
		}
		h.Method = m
	}
	if in.ContentType != nil {
		if *in.ContentType != "json" && *in.ContentType != "form" {
			return usererr.BadFieldf("config.content_type", "content_type must be json or form")
		}
		h.ContentType = *in.ContentType
	}
	if in.Secret != nil {
		if err := checkText("config.secret", *in.Secret, maxSecret); err != nil {
			return err
		}
		h.Secret = *in.Secret
	}
	if in.Events != nil {
		events, err := checkEvents(in.Events)
		if err != nil {
			return err
		}
		h.Events = events
	}
	if in.BranchFilter != nil {
		if err := checkText("branch_filter", *in.BranchFilter, maxFilter); err != nil {
			return err
		}
		h.BranchFilter = *in.BranchFilter
	}
	if in.AuthHeader != nil {
		if err := checkText("authorization_header", *in.AuthHeader, maxHeader); err != nil {
			return err
		}
		h.AuthHeader = *in.AuthHeader
	}
	if in.Active != nil {
		h.Active = *in.Active
	}
	return nil
}

func checkURL(raw string) error {
	if err := checkText("config.url", raw, maxURL); err != nil {
		return err
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" || u.User != nil {
		return usererr.BadFieldf("config.url", "url must be an absolute http or https URL without credentials")
	}
	return nil
}

// checkText refuses invalid UTF-8 and control characters (a header value
// with a newline would split the request).
func checkText(field, s string, limit int) error {
	if len(s) > limit {
		return usererr.BadFieldf(field, "%s may be at most %d bytes", field, limit)
	}
	if !utf8.ValidString(s) {
		return usererr.BadFieldf(field, "%s must be valid UTF-8", field)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return usererr.BadFieldf(field, "%s must not hold control characters", field)
		}
	}
	return nil
}

func checkEvents(in []string) ([]string, error) {
	out := make([]string, 0, len(in))
	for _, e := range in {
		if why, ok := neverSent[e]; ok {
			return nil, usererr.BadFieldf("events", "event %q is never sent (%s): events are %s", e, why, strings.Join(Events, ", "))
		}
		if !slices.Contains(Events, e) {
			return nil, usererr.BadFieldf("events", "unknown event %q: events are %s", e, strings.Join(Events, ", "))
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// wants says whether h subscribes to the hook event type (Gitea's
// HookEventType, e.g. pull_request_review_approved). As in Gitea, a
// subscription to issues also takes the issue_* events (assign, label,
// milestone, comment) and one to pull_request the pull_request_* events.
func (h Hook) wants(eventType string) bool {
	if !h.Active {
		return false
	}
	if slices.Contains(h.Events, eventType) {
		return true
	}
	switch {
	case strings.HasPrefix(eventType, "issue_"):
		return slices.Contains(h.Events, "issues")
	case strings.HasPrefix(eventType, "pull_request_"):
		return slices.Contains(h.Events, "pull_request")
	}
	return false
}

// branchMatches applies the branch filter to a push, create or delete of
// ref; tags and other refs always pass, as in Gitea.
func (h Hook) branchMatches(ref string) bool {
	branch, ok := strings.CutPrefix(ref, "refs/heads/")
	if !ok || h.BranchFilter == "" || h.BranchFilter == "*" {
		return true
	}
	return globMatch(h.BranchFilter, branch)
}

// globMatch is Gitea's branch filter: comma-free glob, * within a name
// segment, ** across them, alternatives in {a,b}.
func globMatch(pattern, name string) bool {
	if inner, ok := strings.CutPrefix(pattern, "{"); ok && strings.HasSuffix(inner, "}") {
		for _, alt := range strings.Split(strings.TrimSuffix(inner, "}"), ",") {
			if globMatch(alt, name) {
				return true
			}
		}
		return false
	}
	return matchGlob(pattern, name)
}

func matchGlob(p, s string) bool {
	for len(p) > 0 {
		switch {
		case strings.HasPrefix(p, "**"):
			rest := p[2:]
			for i := 0; i <= len(s); i++ {
				if matchGlob(rest, s[i:]) {
					return true
				}
			}
			return false
		case p[0] == '*':
			rest := p[1:]
			for i := 0; i <= len(s); i++ {
				if matchGlob(rest, s[i:]) {
					return true
				}
				if i < len(s) && s[i] == '/' {
					return false
				}
			}
			return false
		case len(s) == 0 || (p[0] != '?' && p[0] != s[0]) || (p[0] == '?' && s[0] == '/'):
			return false
		}
		p, s = p[1:], s[1:]
	}
	return len(s) == 0
}
