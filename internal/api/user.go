package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/gitea/convert"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

const MaxSettingsBody = 16 << 10

// UserJSON is Gitea's User with dForge's wallet fields. Email is present only
// for the user themself.
type UserJSON struct {
	ID               int64   `json:"id"`
	Login            string  `json:"login"`
	FullName         string  `json:"full_name"`
	Email            *string `json:"email,omitempty"`
	AvatarURL        string  `json:"avatar_url"`
	Description      string  `json:"description"`
	Location         string  `json:"location"`
	Website          string  `json:"website"`
	Created          string  `json:"created"`
	WalletAddress    string  `json:"wallet_address"`
	TwoFactorEnabled bool    `json:"two_factor_enabled"`
	FollowersCount   int64   `json:"followers_count"`
	FollowingCount   int64   `json:"following_count"`
	StarredRepos     int64   `json:"starred_repos_count"`
	HTMLURL          string  `json:"html_url"`
	// IsAdmin is Gitea's field: this node's admin (serve --admin). Only
	// the user themself is told.
	IsAdmin bool `json:"is_admin"`
	// Hidden: this node's moderators hid it (dForge); HiddenReason is why.
	Hidden       bool   `json:"hidden,omitempty"`
	HiddenReason string `json:"hidden_reason,omitempty"`
	// FollowedByMe: whether the signed-in caller follows this user
	// (dForge), what GET /user/following/{username} tells with a 404 for
	// no. Only in GET /users/{username}, and only to another signed-in user.
	FollowedByMe *bool `json:"followed_by_me,omitempty"`
	giteaUserJSON
}

// ToUserJSON shapes u; self adds what only the user may see. The id is
// the local one (localID); the API's methods set the chain's
// (accountID), the same on every node, once the chain knows the account.
func ToUserJSON(u auth.User, self bool) UserJSON {
	j := UserJSON{
		ID: localID(u), Login: u.Username, FullName: u.Profile.FullName, Description: u.Profile.Description,
		Location: u.Profile.Location, Website: u.Profile.Website, WalletAddress: u.Address.Hex(),
		giteaUserJSON: convert.UserCommon(u.Username),
	}
	if !u.CreatedAt.IsZero() {
		j.Created = u.CreatedAt.UTC().Format(time.RFC3339)
	}
	if self {
		email := u.Profile.Email
		j.Email, j.TwoFactorEnabled = &email, u.TwoFactor
	}
	return j
}

func (a *API) getUser(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	return Reply(w, a.withAccount(r, a.SelfJSON(r.Context(), id.User), id.User))
}

// withAccount gives j the follow counts of u's account and the creation
// date the user search gives it: its block's on the chain, so every node answers the same. An account the
// chain has not seen yet keeps the date it first signed in here.
func (a *API) withAccount(r *http.Request, j UserJSON, u auth.User) UserJSON {
	j.ID = a.AccountID(r.Context(), u)
	j.HTMLURL = SiteURL(r) + "/" + j.Login
	if a.Index == nil {
		return j
	}
	if p, err := a.Index.PersonByAddress(r.Context(), u.Address); err == nil && !p.Created.IsZero() {
		j.Created = p.Created.Format(time.RFC3339)
	}
	// Follows are on chain too; a failed count leaves 0 rather than
	// failing the whole user.
	if followers, following, err := a.Index.FollowCounts(r.Context(), u.Address); err == nil {
		j.FollowersCount, j.FollowingCount = followers, following
	}
	if _, stars, err := a.Forge.Repos(r.Context(), index.RepoFilter{StarredBy: &u.Address, Viewer: ViewerOf(r)}, index.Page{Number: 1, Limit: 1}); err == nil {
		j.StarredRepos = stars
	}
	return j
}

func (a *API) patchUserSettings(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		FullName    *string `json:"full_name"`
		Description *string `json:"description"`
		Location    *string `json:"location"`
		Website     *string `json:"website"`
		Email       *string `json:"email"`
	}
	if err := Decode(w, r, MaxSettingsBody, &in); err != nil {
		return err
	}
	u, err := a.Auth.UpdateProfile(r.Context(), id.User, auth.ProfileUpdate{
		FullName: in.FullName, Description: in.Description, Location: in.Location, Website: in.Website, Email: in.Email,
	})
	if err != nil {
		return err
	}
	return Reply(w, a.toUserSettingsJSON(r, u))
}

func (a *API) getUserByName(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("username")
	// No name holds a control character, and PostgreSQL would fail the
	// look-up of one with NUL: such a name names nobody.
	if tx.CheckLine("username", name) != nil {
		return usererr.Missingf("There is no user with that name.")
	}
	u, err := a.Auth.UserByName(r.Context(), name)
	if err != nil {
		return err
	}
	me, signedIn := auth.UserFrom(r.Context())
	j := a.withAccount(r, ToUserJSON(u, signedIn && u.ID != 0 && me.ID == u.ID), u)
	if signedIn && me.Address != u.Address && a.Forge != nil {
		// A failed read leaves the flag out: the client then shows Follow.
		if on, err := a.Forge.Index().IsFollowing(r.Context(), me.Address, u.Address); err == nil {
			j.FollowedByMe = &on
		} else {
			a.Log.ErrorContext(r.Context(), "read the caller's follow", "user", u.Username, "err", err)
		}
	}
	a.ModViewOf(r).maskUser(u.Address, &j)
	WriteJSON(w, http.StatusOK, j)
	return nil
}

// TokenJSON is Gitea's AccessToken; sha1 (the token) appears only when created.
type TokenJSON struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	SHA1      string    `json:"sha1"` // the secret at creation only; "" after, as Gitea
	LastEight string    `json:"token_last_eight"`
	Scopes    []string  `json:"scopes"`
	CreatedAt time.Time `json:"created_at"`
}

func ToTokenJSON(t auth.Token) TokenJSON {
	return TokenJSON{ID: t.ID, Name: t.Name, SHA1: t.Secret, LastEight: t.LastEight, Scopes: t.Scopes, CreatedAt: t.CreatedAt.UTC()}
}

// tokenOwner is the identity acting on /users/{username}/tokens, which must
// be that user: nobody manages another person's tokens.
func (a *API) tokenOwner(r *http.Request, need auth.Scope) (*auth.Identity, error) {
	id, err := auth.Require(r.Context(), need)
	if err != nil {
		return nil, err
	}
	name := r.PathValue("username")
	// A name with a control character is nobody's (and PostgreSQL would
	// fail the look-up of one with NUL).
	self := tx.CheckLine("username", name) == nil
	if self {
		if self, err = a.Auth.IsSelf(r.Context(), id.User, name); err != nil {
			return nil, err
		}
	}
	if !self {
		return nil, usererr.Deniedf("You can only manage your own access tokens.")
	}
	return id, nil
}

func (a *API) listTokens(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	list, err := a.Auth.Tokens(r.Context(), id.User)
	if err != nil {
		return err
	}
	out := make([]TokenJSON, len(list))
	for i, t := range list {
		out[i] = ToTokenJSON(t)
	}
	return Reply(w, out)
}

func (a *API) createToken(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Name   string   `json:"name"`
		Scopes []string `json:"scopes"`
	}
	if err := Decode(w, r, MaxSettingsBody, &in); err != nil {
		return err
	}
	t, err := a.Auth.CreateToken(r.Context(), id.User, in.Name, in.Scopes)
	if err != nil {
		return err
	}
	WriteNoStore(w, http.StatusCreated, ToTokenJSON(t))
	return nil
}

func (a *API) deleteToken(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	if err := a.Auth.RevokeToken(r.Context(), id.User, r.PathValue("token")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// PathID is the {id} in the path; one that is not a number names nothing,
// answered with notFound.
func PathID(r *http.Request, notFound string) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return 0, usererr.New(usererr.NotFound, usererr.CodeNotFound, notFound)
	}
	return n, nil
}

func (a *API) getTwoFactor(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	st, err := a.Auth.TwoFactor(r.Context(), id.User)
	if err != nil {
		return err
	}
	return Reply(w, map[string]any{"enabled": st.Enabled, "recoveryCodesLeft": st.RecoveryCodesLeft})
}

func (a *API) setupTwoFactor(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	setup, err := a.Auth.SetupTOTP(r.Context(), id.User)
	if err != nil {
		return err
	}
	WriteNoStore(w, http.StatusOK, map[string]string{"secret": setup.Secret, "otpauthUrl": setup.OTPAuthURL})
	return nil
}

// decodeCode reads {code} for the two-factor settings routes.
func decodeCode(w http.ResponseWriter, r *http.Request) (string, error) {
	var in struct {
		Code string `json:"code"`
	}
	err := Decode(w, r, MaxSettingsBody, &in)
	return in.Code, err
}

func (a *API) enableTwoFactor(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	code, err := decodeCode(w, r)
	if err != nil {
		return err
	}
	codes, err := a.Auth.EnableTOTP(r.Context(), id.User, code)
	if err != nil {
		return err
	}
	WriteNoStore(w, http.StatusOK, map[string][]string{"recoveryCodes": codes})
	return nil
}

func (a *API) disableTwoFactor(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	code, err := decodeCode(w, r)
	if err != nil {
		return err
	}
	if err := a.Auth.DisableTOTP(r.Context(), id.User, code); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

type SessionJSON struct {
	ID         int64     `json:"id"`
	Current    bool      `json:"current"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	UserAgent  string    `json:"userAgent"`
	IP         string    `json:"ip"`
}

func (a *API) listSessions(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	list, err := a.Auth.Sessions(r.Context(), id)
	if err != nil {
		return err
	}
	out := make([]SessionJSON, len(list))
	for i, s := range list {
		out[i] = SessionJSON{ID: s.ID, Current: s.Current, CreatedAt: s.CreatedAt.UTC(), LastSeenAt: s.LastSeenAt.UTC(), UserAgent: s.UserAgent, IP: s.IP}
	}
	return Reply(w, out)
}

func (a *API) deleteSession(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	sessionID, err := PathID(r, "You have no session with that id.")
	if err != nil {
		return err
	}
	if err := a.Auth.RevokeSession(r.Context(), id.User, sessionID); err != nil {
		return err
	}
	if sessionID == id.SessionID {
		auth.ClearCookie(w, r) // revoking this browser's own session signs it out
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) getNotificationPrefs(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	p, err := a.Auth.NotificationPrefs(r.Context(), id.User)
	if err != nil {
		return err
	}
	return Reply(w, p)
}

// putNotificationPrefs replaces the preferences; a key left out keeps its value.
func (a *API) putNotificationPrefs(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	p, err := a.Auth.NotificationPrefs(r.Context(), id.User)
	if err != nil {
		return err
	}
	if err := Decode(w, r, MaxSettingsBody, &p); err != nil {
		return err
	}
	if err := a.Auth.SetNotificationPrefs(r.Context(), id.User, p); err != nil {
		return err
	}
	return Reply(w, p)
}
