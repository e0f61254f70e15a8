package forge

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
)

// The marketplace (listing.publish|update|delete, listing.install|
// uninstall): a listing is an integration anyone publishes, a webhook
// recipe (the events it wants and a URL template filled per repository).
// Listings and who installed them where are public, so they are on chain;
// the webhook itself is node-local (internal/webhook), created by the node
// that relays the install. Names are unique without regard to case, ids
// sequential and never reused. A deleted listing is hidden but its
// installs stay, so its webhooks keep working and can still be removed.
// Installs are into public repositories only (a private one has no chain
// record to count), by the repository's administrators (maintain and up),
// once per repository and listing.

// Bounds of a listing's fields.
const (
	MaxListingName        = 100  // characters
	MaxListingDescription = 2000 // characters
	MaxListingURL         = 2048 // bytes, a webhook URL's bound
)

// ListingEvents are the webhook events a listing may ask for: the ones
// the node's webhooks take (internal/webhook's Events, Gitea's names; a
// test keeps the two lists equal). The chain cannot import the webhook
// package, which sits above it.
var ListingEvents = []string{
	"create", "delete", "fork", "push", "issues", "issue_assign", "issue_label", "issue_milestone",
	"issue_comment", "pull_request", "pull_request_assign", "pull_request_label", "pull_request_milestone",
	"pull_request_comment", "pull_request_review_approved", "pull_request_review_rejected",
	"pull_request_review_comment", "pull_request_sync", "pull_request_review_request", "wiki",
	"repository", "release", "package", "status",
}

// ListingPlaceholders are what a URL template may hold in braces, filled
// at install time with the repository's owner name, its name (both
// path-escaped) and its id.
var ListingPlaceholders = []string{"{owner}", "{repo}", "{repo_id}"}

// Listing is a marketplace listing as stored and projected.
type Listing struct {
	ID            uint64         `json:"id"`
	Publisher     common.Address `json:"publisher"`
	Name          string         `json:"name"`
	Description   string         `json:"description"`
	Events        []string       `json:"events"`
	URLTemplate   string         `json:"url_template"`
	Homepage      string         `json:"homepage"`
	Deleted       bool           `json:"deleted,omitempty"`
	CreatedHeight uint64         `json:"createdHeight"`
	UpdatedHeight uint64         `json:"updatedHeight"`
}

// Install is a listing installed in a repository (On) or removed from it.
type Install struct {
	Listing   uint64         `json:"listing"`
	Repo      uint64         `json:"repo"`
	Installer common.Address `json:"installer"`
	On        bool           `json:"on"`
}

// ListingPublish publishes a listing; the actor is its publisher.
type ListingPublish struct {
	Name        string   `json:"name"`
	Description string   `json:"description" text:"body"`
	Events      []string `json:"events"`
	URLTemplate string   `json:"url_template"`
	Homepage    string   `json:"homepage"`
}

// ListingUpdate changes the fields given of the publisher's listing ID.
type ListingUpdate struct {
	ID          uint64    `json:"id"`
	Name        *string   `json:"name,omitempty"`
	Description *string   `json:"description,omitempty" text:"body"`
	Events      *[]string `json:"events,omitempty"`
	URLTemplate *string   `json:"url_template,omitempty"`
	Homepage    *string   `json:"homepage,omitempty"`
}

// ListingDelete hides the publisher's listing ID; its installs stay.
type ListingDelete struct {
	ID uint64 `json:"id"`
}

// ListingInstall installs Listing in repository Repo.
type ListingInstall struct {
	Listing uint64 `json:"listing"`
	Repo    uint64 `json:"repo"`
}

// ListingUninstall removes Listing from repository Repo.
type ListingUninstall ListingInstall

func (ListingPublish) ActionName() string   { return "listing.publish" }
func (ListingUpdate) ActionName() string    { return "listing.update" }
func (ListingDelete) ActionName() string    { return "listing.delete" }
func (ListingInstall) ActionName() string   { return "listing.install" }
func (ListingUninstall) ActionName() string { return "listing.uninstall" }

// listingErr is a refusal naming its field, so the API (which runs the
// same checks before relaying) answers 422 on that field.
func listingErr(code uint32, field, format string, args ...any) error {
	e := tx.NewError(code, "field \""+field+"\" "+format, args...)
	e.Field = field
	return e
}

// CheckListing holds a listing's fields to the rules: what the module
// refuses, without state (the name's uniqueness aside). Text must also
// pass the text rules, which decode applies to every payload.
func CheckListing(l Listing) error {
	name := strings.TrimSpace(l.Name)
	switch n := utf8.RuneCountInString(l.Name); {
	case name == "":
		return listingErr(tx.CodeInvalidField, "name", "must not be empty")
	case n > MaxListingName:
		return listingErr(tx.CodeInvalidField, "name", "is %d characters; the most is %d", n, MaxListingName)
	case name != l.Name:
		return listingErr(tx.CodeInvalidField, "name", "must not start or end with spaces")
	case strings.ContainsAny(l.Name, "\t\n\r"):
		return listingErr(tx.CodeInvalidField, "name", "must be one line")
	}
	if n := utf8.RuneCountInString(l.Description); n > MaxListingDescription {
		return listingErr(tx.CodeInvalidField, "description", "is %d characters; the most is %d", n, MaxListingDescription)
	}
	if err := CheckListingEvents(l.Events); err != nil {
		return err
	}
	if err := CheckURLTemplate(l.URLTemplate); err != nil {
		return err
	}
	return checkHomepage(l.Homepage)
}

// CheckListingEvents wants one or more known events, each once.
func CheckListingEvents(events []string) error {
	if len(events) == 0 {
		return listingErr(tx.CodeInvalidField, "events", "must name at least one event")
	}
	for i, e := range events {
		if !slices.Contains(ListingEvents, e) {
			return listingErr(tx.CodeInvalidField, "events", "names the unknown event %q; events are %s", e, strings.Join(ListingEvents, ", "))
		}
		if slices.Contains(events[:i], e) {
			return listingErr(tx.CodeInvalidField, "events", "names %q twice", e)
		}
	}
	return nil
}

// CheckURLTemplate wants an absolute http:// or https:// URL without
// credentials, whose only braces are the placeholders.
func CheckURLTemplate(t string) error {
	if len(t) > MaxListingURL {
		return listingErr(tx.CodeInvalidURL, "url_template", "is %d bytes; the most is %d", len(t), MaxListingURL)
	}
	sample := t
	for _, p := range ListingPlaceholders {
		sample = strings.ReplaceAll(sample, p, "x")
	}
	if strings.ContainsAny(sample, "{}") {
		return listingErr(tx.CodeInvalidURL, "url_template", "may hold only the placeholders %s in braces", strings.Join(ListingPlaceholders, " "))
	}
	if !httpURL(sample) {
		return listingErr(tx.CodeInvalidURL, "url_template", "must be an absolute http:// or https:// URL without credentials")
	}
	return nil
}

func checkHomepage(h string) error {
	if h == "" {
		return nil
	}
	if len(h) > MaxListingURL || !httpURL(h) {
		return listingErr(tx.CodeInvalidURL, "homepage", "must be empty or an http:// or https:// URL of at most %d bytes", MaxListingURL)
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

func listingKey(id uint64) []byte { return key([]byte("listing"), u64(id)) }
func listingNameKey(name string) []byte {
	return key([]byte("listingname"), []byte(strings.ToLower(name)))
}
func installKey(listing, repo uint64) []byte {
	return key([]byte("listinginstall"), u64(listing), u64(repo))
}

// listing loads listing id; a deleted one only when keepDeleted.
func (s *session) listing(id uint64, keepDeleted bool) (*Listing, error) {
	var l Listing
	ok, err := s.getJSON(listingKey(id), &l)
	if err != nil {
		return nil, err
	}
	if !ok || id == 0 || (l.Deleted && !keepDeleted) {
		return nil, notFound("listing %d does not exist", id)
	}
	return &l, nil
}

// claimListingName takes name for listing id, refusing one another listing has.
func (s *session) claimListingName(name string, id uint64) error {
	held, err := s.getID(listingNameKey(name))
	if err != nil {
		return err
	}
	if held != 0 && held != id {
		e := tx.NewError(tx.CodeNameTaken, "a listing named %q exists already; names are unique without regard to case", name)
		e.Field = "name"
		return e
	}
	return s.kv.Set(listingNameKey(name), u64(id))
}

func (s *session) saveListing(l *Listing) error {
	l.UpdatedHeight = s.env.Height
	if err := s.putJSON(listingKey(l.ID), l); err != nil {
		return err
	}
	s.change.Listing = l
	return nil
}

func listingPublish(s *session, payload []byte) error {
	var p ListingPublish
	if err := decode(payload, &p); err != nil {
		return err
	}
	l := Listing{Publisher: s.actor, Name: p.Name, Description: p.Description, Events: p.Events,
		URLTemplate: p.URLTemplate, Homepage: p.Homepage, CreatedHeight: s.env.Height}
	if err := CheckListing(l); err != nil {
		return err
	}
	id, err := s.nextID("listing")
	if err != nil {
		return err
	}
	l.ID = id
	if err := s.claimListingName(l.Name, id); err != nil {
		return err
	}
	return s.saveListing(&l)
}

// ownListing loads the actor's live listing id.
func (s *session) ownListing(id uint64) (*Listing, error) {
	l, err := s.listing(id, false)
	if err != nil {
		return nil, err
	}
	if l.Publisher != s.actor {
		return nil, forbidden("listing %d is not yours; only its publisher changes it", id)
	}
	return l, nil
}

func listingUpdate(s *session, payload []byte) error {
	var p ListingUpdate
	if err := decode(payload, &p); err != nil {
		return err
	}
	l, err := s.ownListing(p.ID)
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
	if err := CheckListing(*l); err != nil {
		return err
	}
	if !strings.EqualFold(oldName, l.Name) {
		if err := s.claimListingName(l.Name, l.ID); err != nil {
			return err
		}
		if err := s.kv.Set(listingNameKey(oldName), none); err != nil {
			return err
		}
	}
	return s.saveListing(l)
}

func listingDelete(s *session, payload []byte) error {
	var p ListingDelete
	if err := decode(payload, &p); err != nil {
		return err
	}
	l, err := s.ownListing(p.ID)
	if err != nil {
		return err
	}
	// The name is free again; the record stays, for its installs.
	if err := s.kv.Set(listingNameKey(l.Name), none); err != nil {
		return err
	}
	l.Deleted = true
	return s.saveListing(l)
}

func listingInstall(s *session, payload []byte, on bool) error {
	var p ListingInstall
	if err := decode(payload, &p); err != nil {
		return err
	}
	// A deleted listing cannot be installed, but is still removed.
	if _, err := s.listing(p.Listing, !on); err != nil {
		return err
	}
	what := "installing a listing"
	if !on {
		what = "removing a listing"
	}
	r, _, err := s.access(p.Repo, PermMaintain, what)
	if err != nil {
		return err
	}
	if r.Private || s.env.Private {
		return listingErr(tx.CodeInvalidField, "repo", "is private; installs are public records, so only public repositories take them")
	}
	k := installKey(p.Listing, p.Repo)
	v, err := s.kv.Get(k)
	if err != nil {
		return err
	}
	switch was := !isNone(v); {
	case on && was:
		return conflict("listing %d is installed in %s already", p.Listing, r.Name)
	case !on && !was:
		return notFound("listing %d is not installed in %s", p.Listing, r.Name)
	case on:
		err = s.kv.Set(k, s.actor.Bytes())
	default:
		err = s.kv.Set(k, none)
	}
	if err != nil {
		return err
	}
	s.change.Install = &Install{Listing: p.Listing, Repo: p.Repo, Installer: s.actor, On: on}
	return nil
}
