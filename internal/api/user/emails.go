package user

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainemails "github.com/dforge/dforge/internal/chain/emails"
	"github.com/dforge/dforge/internal/usererr"
)

// A user's emails, Gitea's /user/emails: the wallet's own address email
// (0xabc...@users.dforge, primary) and the emails the account claimed on
// chain (user.emails), under which its commits count as its own. A claim
// is the account's signed word, public, and not a mailbox check (this
// node sends no mail), so it is listed as unverified.

func (a *Handler) RegisterEmails(mux *http.ServeMux) {
	if a.Forge == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/user/emails", a.SignedIn(auth.ScopeRead, a.listMyEmails))
	mux.HandleFunc("POST /api/v1/user/emails", a.SignedIn(auth.ScopeWrite, a.addEmails))
	mux.HandleFunc("DELETE /api/v1/user/emails", a.SignedIn(auth.ScopeWrite, a.deleteEmails))
	// dForge's own: the emails an account claimed, public like the claim.
	mux.HandleFunc("GET /api/v1/users/{username}/emails", a.Serve(a.listUserEmails))
}

// emailJSON is Gitea's Email.
type emailJSON struct {
	Email    string `json:"email"`
	Verified bool   `json:"verified"`
	Primary  bool   `json:"primary"`
	UserID   int64  `json:"user_id"`
	Username string `json:"username"`
}

type emailsOption struct {
	Emails []string `json:"emails"`
}

// walletEmail is the email that names the account by its address, the
// form the node suggests for commits.
func walletEmail(addr common.Address) string {
	return strings.ToLower(addr.Hex()) + "@users.dforge"
}

func (a *Handler) listMyEmails(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return api.Reply(w, a.emailsOf(r, id.User.Address))
}

func (a *Handler) listUserEmails(w http.ResponseWriter, r *http.Request) error {
	addr, err := a.Hosting.Owner(r.Context(), r.PathValue("username"))
	if err != nil {
		return err
	}
	return api.Reply(w, a.emailsOf(r, addr))
}

// emailsOf lists addr's emails: the wallet's first, then the claims.
func (a *Handler) emailsOf(r *http.Request, addr common.Address) []emailJSON {
	u := api.ToForgeUser(r, a.PersonOf(r, addr))
	out := []emailJSON{{Email: walletEmail(addr), Verified: true, Primary: true, UserID: u.ID, Username: u.Login}}
	claimed, err := a.Forge.Index().EmailsOf(r.Context(), addr)
	if err != nil {
		a.Log.WarnContext(r.Context(), "read claimed emails", "address", addr.Hex(), "err", err)
	}
	for _, e := range claimed {
		out = append(out, emailJSON{Email: e, UserID: u.ID, Username: u.Login})
	}
	return out
}

// addEmails claims the emails sent, keeping the earlier claims; an email
// the account or another already claimed is Gitea's 422.
func (a *Handler) addEmails(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	in, err := a.emailsIn(w, r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	current, err := a.Forge.Index().EmailsOf(ctx, id.User.Address)
	if err != nil {
		return err
	}
	owners, err := a.Forge.Index().EmailOwners(ctx, in)
	if err != nil {
		return err
	}
	for _, e := range in {
		if _, taken := owners[e]; taken || e == walletEmail(id.User.Address) {
			return usererr.Unprocessablef("emails", "email_taken", "%s is already claimed", e)
		}
	}
	if len(current)+len(in) > chainemails.MaxEmails {
		return usererr.BadFieldf("emails", "an account may claim at most %d emails", chainemails.MaxEmails)
	}
	if _, err := a.Forge.Do(ctx, id.User.Address, chainemails.Set{Emails: append(current, in...)}); err != nil {
		return err
	}
	u := api.ToForgeUser(r, a.PersonOf(r, id.User.Address))
	out := make([]emailJSON, 0, len(in))
	for _, e := range in {
		out = append(out, emailJSON{Email: e, UserID: u.ID, Username: u.Login})
	}
	api.WriteJSON(w, http.StatusCreated, out)
	return nil
}

// deleteEmails lets claims go; an email the account did not claim is 404.
func (a *Handler) deleteEmails(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	in, err := a.emailsIn(w, r)
	if err != nil {
		return err
	}
	current, err := a.Forge.Index().EmailsOf(r.Context(), id.User.Address)
	if err != nil {
		return err
	}
	for _, e := range in {
		if !slices.Contains(current, e) {
			return usererr.Missingf("%s is not one of your claimed emails", e)
		}
	}
	rest := slices.DeleteFunc(current, func(e string) bool { return slices.Contains(in, e) })
	if _, err := a.Forge.Do(r.Context(), id.User.Address, chainemails.Set{Emails: rest}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// emailsIn reads {"emails": [...]}: lower-cased, checked, without repeats.
func (a *Handler) emailsIn(w http.ResponseWriter, r *http.Request) ([]string, error) {
	var in emailsOption
	if err := api.Decode(w, r, 16<<10, &in); err != nil {
		return nil, err
	}
	out := []string{}
	for _, e := range in.Emails {
		e = strings.ToLower(strings.TrimSpace(e))
		if !chainemails.ValidEmail(e) {
			return nil, usererr.BadFieldf("emails", "%q is not an email address, such as name@example.org", e)
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil, usererr.BadFieldf("emails", "name at least one email")
	}
	return out, nil
}
