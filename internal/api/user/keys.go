package user

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// SSH public keys, in Gitea's shapes (PublicKey). The keys are on chain,
// so every node lets them into git over SSH.

func (a *Handler) RegisterKeys(mux *http.ServeMux) {
	if a.Forge == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/user/keys", user(auth.ScopeRead, a.listMyKeys))
	mux.HandleFunc("POST /api/v1/user/keys", user(auth.ScopeWrite, a.createKey))
	mux.HandleFunc("GET /api/v1/user/keys/{id}", user(auth.ScopeRead, a.getKey))
	mux.HandleFunc("DELETE /api/v1/user/keys/{id}", user(auth.ScopeWrite, a.deleteKey))
	mux.HandleFunc("GET /api/v1/users/{username}/keys", a.Serve(a.listUserKeys))
}

// keyJSON is Gitea's PublicKey.
type keyJSON struct {
	ID          uint64            `json:"id"`
	Key         string            `json:"key"`
	URL         string            `json:"url"`
	Title       string            `json:"title"`
	Fingerprint string            `json:"fingerprint"`
	CreatedAt   string            `json:"created_at"`
	User        api.ForgeUserJSON `json:"user"`
	ReadOnly    bool              `json:"read_only"`
	KeyType     string            `json:"key_type"`
	// Height is the block that registered the key.
	Height int64 `json:"height"`
}

func toKeyJSON(r *http.Request, k index.Key) keyJSON {
	return keyJSON{
		ID: k.ID, Key: k.Key, URL: api.SiteURL(r) + "/api/v1/user/keys/" + strconv.FormatUint(k.ID, 10), Title: k.Title,
		Fingerprint: k.Fingerprint, CreatedAt: k.Created.Format(time.RFC3339), User: api.ToForgeUser(r, k.Owner),
		KeyType: "user", Height: k.Height,
	}
}

func toKeysJSON(r *http.Request, keys []index.Key) []keyJSON {
	out := make([]keyJSON, 0, len(keys))
	for _, k := range keys {
		out = append(out, toKeyJSON(r, k))
	}
	return out
}

func (a *Handler) listMyKeys(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	keys, total, err := a.Forge.Keys(r.Context(), id.User.Address, p)
	return a.RespondList(w, r, p, total, toKeysJSON(r, keys), err)
}

func (a *Handler) listUserKeys(w http.ResponseWriter, r *http.Request) error {
	owner, err := a.Forge.Owner(r.Context(), r.PathValue("username"))
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	keys, total, err := a.Forge.Keys(r.Context(), owner, p)
	return a.RespondList(w, r, p, total, toKeysJSON(r, keys), err)
}

func (a *Handler) createKey(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Title    string `json:"title"`
		Key      string `json:"key"`
		ReadOnly bool   `json:"read_only"`
	}
	if err := api.Decode(w, r, api.MaxSettingsBody, &in); err != nil {
		return err
	}
	if strings.TrimSpace(in.Key) == "" {
		return usererr.BadFieldf("key", "the key must not be empty: paste a public key such as the content of ~/.ssh/id_ed25519.pub")
	}
	k, err := a.Forge.AddKey(r.Context(), id.User.Address, in.Title, in.Key)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, toKeyJSON(r, k))
	return nil
}

func keyID(r *http.Request) (uint64, error) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		return 0, usererr.Missingf("key %q does not exist", r.PathValue("id"))
	}
	return id, nil
}

func (a *Handler) getKey(w http.ResponseWriter, r *http.Request) error {
	user, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	id, err := keyID(r)
	if err != nil {
		return err
	}
	k, err := a.Forge.OwnKey(r.Context(), user.User.Address, id)
	if err != nil {
		return err
	}
	return api.Reply(w, toKeyJSON(r, k))
}

func (a *Handler) deleteKey(w http.ResponseWriter, r *http.Request) error {
	user, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	id, err := keyID(r)
	if err != nil {
		return err
	}
	if err := a.Forge.DeleteKey(r.Context(), user.User.Address, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
