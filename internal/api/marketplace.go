package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/dforge/dforge/internal/auth"
	chainlisting "github.com/dforge/dforge/internal/chain/listing"
	"github.com/dforge/dforge/internal/index/marketplace"
	"github.com/dforge/dforge/internal/market"
	"github.com/dforge/dforge/internal/usererr"
)

// The marketplace (dForge's own): listings of integrations, each a
// webhook recipe (events and a URL template), published on chain by
// anyone signed in and installed into a public repository by its
// administrators in one step (the webhook and the chain's record).
func (a *API) RegisterMarketplace(mux *http.ServeMux) {
	if a.market == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/marketplace/listings", a.Serve(a.listListings))
	mux.HandleFunc("POST /api/v1/marketplace/listings", user(auth.ScopeWrite, a.publishListing))
	mux.HandleFunc("GET /api/v1/marketplace/listings/{id}", a.Serve(a.getListing))
	mux.HandleFunc("PATCH /api/v1/marketplace/listings/{id}", user(auth.ScopeWrite, a.updateListing))
	mux.HandleFunc("DELETE /api/v1/marketplace/listings/{id}", user(auth.ScopeWrite, a.deleteListing))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/marketplace/installs", a.Serve(a.listInstalls))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/marketplace/installs", user(auth.ScopeWrite, a.installListing))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/marketplace/installs/{listing}", user(auth.ScopeWrite, a.uninstallListing))
}

// listingJSON is a marketplace listing.
type listingJSON struct {
	ID          uint64        `json:"id"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Events      []string      `json:"events"`
	URLTemplate string        `json:"url_template"`
	Homepage    string        `json:"homepage"`
	Publisher   ForgeUserJSON `json:"publisher"`
	// Installs is how many repositories have it installed now.
	Installs int64 `json:"installs"`
	// Deleted is true for a deleted listing, shown only among a
	// repository's installs (its webhook stays until removed).
	Deleted   bool      `json:"deleted"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

func toListing(r *http.Request, l marketplace.Listing) listingJSON {
	return listingJSON{ID: l.ID, Name: l.Name, Description: l.Description, Events: l.Events, URLTemplate: l.URLTemplate,
		Homepage: l.Homepage, Publisher: ToForgeUser(r, l.Publisher), Installs: l.Installs, Deleted: l.Deleted,
		CreatedAt: l.Created, UpdatedAt: l.Updated}
}

// installJSON is a listing installed in a repository.
type installJSON struct {
	Listing   listingJSON   `json:"listing"`
	RepoID    uint64        `json:"repo_id"`
	Installer ForgeUserJSON `json:"installer"`
	// HookID is the repository webhook this node created for the install
	// (shown to its administrators); absent when there is none here.
	HookID    int64     `json:"hook_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

func toInstall(r *http.Request, in market.Install) installJSON {
	return installJSON{Listing: toListing(r, in.Listing), RepoID: in.RepoID, Installer: ToForgeUser(r, in.Installer),
		HookID: in.Hook, CreatedAt: in.Created}
}

// listingBody is a listing as a client sends it: all fields to publish,
// the ones to change to edit.
type listingBody struct {
	Name        *string   `json:"name"`
	Description *string   `json:"description"`
	Events      *[]string `json:"events"`
	URLTemplate *string   `json:"url_template"`
	Homepage    *string   `json:"homepage"`
}

// installBody names the listing to install.
type installBody struct {
	Listing uint64 `json:"listing"`
}

func listingID(r *http.Request, name string) (uint64, error) {
	id, err := strconv.ParseUint(r.PathValue(name), 10, 64)
	if err != nil || id == 0 {
		return 0, usererr.Missingf("listing %q does not exist", r.PathValue(name))
	}
	return id, nil
}

// listListings lists the listings, most installed first; q searches
// their names and descriptions.
func (a *API) listListings(w http.ResponseWriter, r *http.Request) error {
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.market.Listings(r.Context(), r.URL.Query().Get("q"), p)
	out := make([]listingJSON, 0, len(list))
	for _, l := range list {
		out = append(out, toListing(r, l))
	}
	return a.RespondList(w, r, p, total, out, err)
}

// getListing is one listing.
func (a *API) getListing(w http.ResponseWriter, r *http.Request) error {
	id, err := listingID(r, "id")
	if err != nil {
		return err
	}
	l, err := a.market.Listing(r.Context(), id)
	if err != nil {
		return err
	}
	return Reply(w, toListing(r, l))
}

// publishListing publishes a listing; the signed-in user is its
// publisher. A bad field is 422 naming it (invalid_url for a URL template
// that is not an absolute http(s) URL), a name taken 409.
func (a *API) publishListing(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	var body listingBody
	if err := Decode(w, r, 64<<10, &body); err != nil {
		return err
	}
	p := chainlisting.Publish{}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.Name, body.Name)
	set(&p.Description, body.Description)
	set(&p.URLTemplate, body.URLTemplate)
	set(&p.Homepage, body.Homepage)
	if body.Events != nil {
		p.Events = *body.Events
	}
	l, err := a.market.Publish(r.Context(), id.User.Address, p)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusCreated, toListing(r, l))
	return nil
}

// updateListing changes the fields sent of a listing (its publisher only).
func (a *API) updateListing(w http.ResponseWriter, r *http.Request) error {
	user, err := RequireUser(r)
	if err != nil {
		return err
	}
	id, err := listingID(r, "id")
	if err != nil {
		return err
	}
	var body listingBody
	if err := Decode(w, r, 64<<10, &body); err != nil {
		return err
	}
	l, err := a.market.Update(r.Context(), user.User.Address, chainlisting.Update{ID: id, Name: body.Name,
		Description: body.Description, Events: body.Events, URLTemplate: body.URLTemplate, Homepage: body.Homepage})
	if err != nil {
		return err
	}
	return Reply(w, toListing(r, l))
}

// deleteListing hides a listing (its publisher only); where it is
// installed, its webhooks stay until removed.
func (a *API) deleteListing(w http.ResponseWriter, r *http.Request) error {
	user, err := RequireUser(r)
	if err != nil {
		return err
	}
	id, err := listingID(r, "id")
	if err != nil {
		return err
	}
	if err := a.market.Delete(r.Context(), user.User.Address, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listInstalls lists the listings installed in a repository (public
// records; the webhook ids only for its administrators).
func (a *API) listInstalls(w http.ResponseWriter, r *http.Request) error {
	repo, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	list, err := a.market.Installs(r.Context(), repo, perm)
	if err != nil {
		return err
	}
	out := make([]installJSON, 0, len(list))
	for _, in := range list {
		out = append(out, toInstall(r, in))
	}
	return Reply(w, out)
}

// installListing installs a listing into the repository in one step: its
// webhook (the listing's events, its URL template filled) and the chain's
// record. For the repository's administrators; a private repository is
// 422 (installs are public records), an install already there 409.
func (a *API) installListing(w http.ResponseWriter, r *http.Request) error {
	user, err := RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	var body installBody
	if err := Decode(w, r, 4<<10, &body); err != nil {
		return err
	}
	if body.Listing == 0 {
		return usererr.BadFieldf("listing", "listing is required: the id of the listing to install")
	}
	in, err := a.market.Install(r.Context(), user.User.Address, repo, perm, body.Listing)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusCreated, toInstall(r, in))
	return nil
}

// uninstallListing removes a listing from the repository: the chain's
// record and the webhook this node created for it.
func (a *API) uninstallListing(w http.ResponseWriter, r *http.Request) error {
	user, err := RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	id, err := listingID(r, "listing")
	if err != nil {
		return err
	}
	if err := a.market.Uninstall(r.Context(), user.User.Address, repo, perm, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
