// Package listing is the chain module of the marketplace
// (listing.publish|update|delete, listing.install|uninstall): a listing is
// an integration anyone publishes, a webhook recipe (the events it wants
// and a URL template filled per repository). Listings and who installed
// them where are public, so they are on chain; the webhook itself is
// node-local (internal/webhook), created by the node that relays the
// install (internal/market). Names are unique without regard to case, ids
// sequential and never reused. A deleted listing is hidden but its installs
// stay, so its webhooks keep working and can still be removed. Installs are
// into public repositories only (a private one has no chain record to
// count), by the repository's administrators (maintain and up), once per
// repository and listing.
//
// Its actions are forge actions: init registers them into the forge
// module's one actions table (forge.Register); the records their events
// carry (forge.Listing, forge.Install) stay in the forge package. README.md
// is the spec.
package listing

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

func init() {
	forge.Register("listing.publish", Publish{}, publish)
	forge.Register("listing.update", Update{}, update)
	forge.Register("listing.delete", Delete{}, del)
	forge.Register("listing.install", Install{}, func(s *forge.Session, p []byte) error { return install(s, p, true) })
	forge.Register("listing.uninstall", Uninstall{}, func(s *forge.Session, p []byte) error { return install(s, p, false) })
}

// Bounds of a listing's fields.
const (
	MaxName        = 100  // characters
	MaxDescription = 2000 // characters
	MaxURL         = 2048 // bytes, a webhook URL's bound
)

// Events are the webhook events a listing may ask for: the ones the node's
// webhooks take (internal/webhook's Events, Gitea's names; a test in
// internal/market keeps the two lists equal). The chain cannot import the
// webhook package, which sits above it.
var Events = []string{
	"create", "delete", "fork", "push", "issues", "issue_assign", "issue_label", "issue_milestone",
	"issue_comment", "pull_request", "pull_request_assign", "pull_request_label", "pull_request_milestone",
	"pull_request_comment", "pull_request_review_approved", "pull_request_review_rejected",
	"pull_request_review_comment", "pull_request_sync", "pull_request_review_request", "wiki",
	"repository", "release", "package", "status",
}

// Placeholders are what a URL template may hold in braces, filled at
// install time with the repository's owner name, its name (both
// path-escaped) and its id.
var Placeholders = []string{"{owner}", "{repo}", "{repo_id}"}

// Publish publishes a listing; the actor is its publisher.
type Publish struct {
	Name        string   `json:"name"`
	Description string   `json:"description" text:"body"`
	Events      []string `json:"events"`
	URLTemplate string   `json:"url_template"`
	Homepage    string   `json:"homepage"`
}

// Update changes the fields given of the publisher's listing ID.
type Update struct {
	ID          uint64    `json:"id"`
	Name        *string   `json:"name,omitempty"`
	Description *string   `json:"description,omitempty" text:"body"`
	Events      *[]string `json:"events,omitempty"`
	URLTemplate *string   `json:"url_template,omitempty"`
	Homepage    *string   `json:"homepage,omitempty"`
}

// Delete hides the publisher's listing ID; its installs stay.
type Delete struct {
	ID uint64 `json:"id"`
}

// Install installs Listing in repository Repo.
type Install struct {
	Listing uint64 `json:"listing"`
	Repo    uint64 `json:"repo"`
}

// Uninstall removes Listing from repository Repo.
type Uninstall Install

func (Publish) ActionName() string   { return "listing.publish" }
func (Update) ActionName() string    { return "listing.update" }
func (Delete) ActionName() string    { return "listing.delete" }
func (Install) ActionName() string   { return "listing.install" }
func (Uninstall) ActionName() string { return "listing.uninstall" }

// refusal is a refusal naming its field, so the API (which runs the same
// checks before relaying) answers 422 on that field.
func refusal(code uint32, field, format string, args ...any) error {
	e := tx.NewError(code, "field \""+field+"\" "+format, args...)
	e.Field = field
	return e
}

// Check holds a listing's fields to the rules: what the module refuses,
// without state (the name's uniqueness aside). Text must also pass the
// text rules, which forge.Decode applies to every payload.
func Check(l forge.Listing) error {
	name := strings.TrimSpace(l.Name)
	switch n := utf8.RuneCountInString(l.Name); {
	case name == "":
		return refusal(tx.CodeInvalidField, "name", "must not be empty")
	case n > MaxName:
		return refusal(tx.CodeInvalidField, "name", "is %d characters; the most is %d", n, MaxName)
	case name != l.Name:
		return refusal(tx.CodeInvalidField, "name", "must not start or end with spaces")
	case strings.ContainsAny(l.Name, "\t\n\r"):
		return refusal(tx.CodeInvalidField, "name", "must be one line")
	}
	if n := utf8.RuneCountInString(l.Description); n > MaxDescription {
		return refusal(tx.CodeInvalidField, "description", "is %d characters; the most is %d", n, MaxDescription)
	}
	if err := CheckEvents(l.Events); err != nil {
		return err
	}
	if err := CheckURLTemplate(l.URLTemplate); err != nil {
		return err
	}
	return checkHomepage(l.Homepage)
}

// CheckEvents wants one or more known events, each once.
func CheckEvents(events []string) error {
	if len(events) == 0 {
		return refusal(tx.CodeInvalidField, "events", "must name at least one event")
	}
	for i, e := range events {
		if !slices.Contains(Events, e) {
			return refusal(tx.CodeInvalidField, "events", "names the unknown event %q; events are %s", e, strings.Join(Events, ", "))
		}
		if slices.Contains(events[:i], e) {
			return refusal(tx.CodeInvalidField, "events", "names %q twice", e)
		}
	}
	return nil
}

// CheckURLTemplate wants an absolute http:// or https:// URL without
// credentials, whose only braces are the placeholders.
func CheckURLTemplate(t string) error {
	if len(t) > MaxURL {
		return refusal(tx.CodeInvalidURL, "url_template", "is %d bytes; the most is %d", len(t), MaxURL)
	}
	sample := t
	for _, p := range Placeholders {
		sample = strings.ReplaceAll(sample, p, "x")
	}
	if strings.ContainsAny(sample, "{}") {
		return refusal(tx.CodeInvalidURL, "url_template", "may hold only the placeholders %s in braces", strings.Join(Placeholders, " "))
	}
	if !httpURL(sample) {
		return refusal(tx.CodeInvalidURL, "url_template", "must be an absolute http:// or https:// URL without credentials")
	}
	return nil
}

func checkHomepage(h string) error {
	if h == "" {
		return nil
	}
	if len(h) > MaxURL || !httpURL(h) {
		return refusal(tx.CodeInvalidURL, "homepage", "must be empty or an http:// or https:// URL of at most %d bytes", MaxURL)
	}
	return nil
}

// httpURL is an absolute http or https URL with a host and no
// credentials or spaces, as a webhook's URL must be.
func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" && u.User == nil &&
		!strings.ContainsAny(s, " \t\n\r")
}

// FillURLTemplate is the webhook URL of template t for a repository.
func FillURLTemplate(t, owner, repo string, repoID uint64) string {
	return strings.NewReplacer("{owner}", url.PathEscape(owner), "{repo}", url.PathEscape(repo),
		"{repo_id}", strconv.FormatUint(repoID, 10)).Replace(t)
}

// State keys, under the forge module's prefix, where they were before the
// marketplace had its own package (the app hash depends on them).
func listingKey(id uint64) []byte { return forge.StateKey([]byte("listing"), state.Uint64(id)) }
func nameKey(name string) []byte {
	return forge.StateKey([]byte("listingname"), []byte(strings.ToLower(name)))
}
func installKey(listing, repo uint64) []byte {
	return forge.StateKey([]byte("listinginstall"), state.Uint64(listing), state.Uint64(repo))
}

// load loads listing id; a deleted one only when keepDeleted.
func load(s *forge.Session, id uint64, keepDeleted bool) (*forge.Listing, error) {
	var l forge.Listing
	ok, err := s.GetJSON(listingKey(id), &l)
	if err != nil {
		return nil, err
	}
	if !ok || id == 0 || (l.Deleted && !keepDeleted) {
		return nil, forge.NotFound("listing %d does not exist", id)
	}
	return &l, nil
}

// claimName takes name for listing id, refusing one another listing has.
func claimName(s *forge.Session, name string, id uint64) error {
	held, err := s.GetID(nameKey(name))
	if err != nil {
		return err
	}
	if held != 0 && held != id {
		e := tx.NewError(tx.CodeNameTaken, "a listing named %q exists already; names are unique without regard to case", name)
		e.Field = "name"
		return e
	}
	return s.KV().Set(nameKey(name), state.Uint64(id))
}

func save(s *forge.Session, l *forge.Listing) error {
	l.UpdatedHeight = s.Env().Height
	if err := s.PutJSON(listingKey(l.ID), l); err != nil {
		return err
	}
	s.Change().Listing = l
	return nil
}

func publish(s *forge.Session, payload []byte) error {
	var p Publish
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	l := forge.Listing{Publisher: s.Actor(), Name: p.Name, Description: p.Description, Events: p.Events,
		URLTemplate: p.URLTemplate, Homepage: p.Homepage, CreatedHeight: s.Env().Height}
	if err := Check(l); err != nil {
		return err
	}
	id, err := s.NextID("listing")
	if err != nil {
		return err
	}
	l.ID = id
	if err := claimName(s, l.Name, id); err != nil {
		return err
	}
	return save(s, &l)
}

// own loads the actor's live listing id.
func own(s *forge.Session, id uint64) (*forge.Listing, error) {
	l, err := load(s, id, false)
	if err != nil {
		return nil, err
	}
	if l.Publisher != s.Actor() {
		return nil, forge.Forbidden("listing %d is not yours; only its publisher changes it", id)
	}
	return l, nil
}

func update(s *forge.Session, payload []byte) error {
	var p Update
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	l, err := own(s, p.ID)
	if err != nil {
		return err
	}
	oldName := l.Name
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&l.Name, p.Name)
	set(&l.Description, p.Description)
	set(&l.URLTemplate, p.URLTemplate)
	set(&l.Homepage, p.Homepage)
	if p.Events != nil {
		l.Events = *p.Events
	}
	if err := Check(*l); err != nil {
		return err
	}
	if !strings.EqualFold(oldName, l.Name) {
		if err := claimName(s, l.Name, l.ID); err != nil {
			return err
		}
		if err := s.KV().Set(nameKey(oldName), forge.None()); err != nil {
			return err
		}
	}
	return save(s, l)
}

func del(s *forge.Session, payload []byte) error {
	var p Delete
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	l, err := own(s, p.ID)
	if err != nil {
		return err
	}
	// The name is free again; the record stays, for its installs.
	if err := s.KV().Set(nameKey(l.Name), forge.None()); err != nil {
		return err
	}
	l.Deleted = true
	return save(s, l)
}

func install(s *forge.Session, payload []byte, on bool) error {
	var p Install
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	// A deleted listing cannot be installed, but is still removed.
	if _, err := load(s, p.Listing, !on); err != nil {
		return err
	}
	what := "installing a listing"
	if !on {
		what = "removing a listing"
	}
	r, _, err := s.Access(p.Repo, forge.PermMaintain, what)
	if err != nil {
		return err
	}
	if r.Private || s.Env().Private {
		return refusal(tx.CodeInvalidField, "repo", "is private; installs are public records, so only public repositories take them")
	}
	k := installKey(p.Listing, p.Repo)
	v, err := s.KV().Get(k)
	if err != nil {
		return err
	}
	switch was := !forge.IsNone(v); {
	case on && was:
		return forge.Conflict("listing %d is installed in %s already", p.Listing, r.Name)
	case !on && !was:
		return forge.NotFound("listing %d is not installed in %s", p.Listing, r.Name)
	case on:
		err = s.KV().Set(k, s.Actor().Bytes())
	default:
		err = s.KV().Set(k, forge.None())
	}
	if err != nil {
		return err
	}
	s.Change().Install = &forge.Install{Listing: p.Listing, Repo: p.Repo, Installer: s.Actor(), On: on}
	return nil
}
