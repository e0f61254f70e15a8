package user

import (
	"context"
	"github.com/dforge/dforge/internal/api"
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/follows"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Following, as Gitea's /user/following and /users/{username}/followers:
// follows are on chain (user.follow, user.unfollow) and read from the
// index, so every node answers the same.

func (a *Handler) RegisterFollows(mux *http.ServeMux) {
	if a.Forge == nil || a.Auth == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/user/followers", user(auth.ScopeRead, a.listMyFollowers))
	mux.HandleFunc("GET /api/v1/user/following", user(auth.ScopeRead, a.listMyFollowing))
	mux.HandleFunc("GET /api/v1/user/following/{username}", user(auth.ScopeRead, a.checkMyFollowing))
	mux.HandleFunc("PUT /api/v1/user/following/{username}", user(auth.ScopeWrite, a.followUser))
	mux.HandleFunc("DELETE /api/v1/user/following/{username}", user(auth.ScopeWrite, a.unfollowUser))
	mux.HandleFunc("GET /api/v1/users/{username}/followers", a.Serve(a.listUserFollowers))
	mux.HandleFunc("GET /api/v1/users/{username}/following", a.Serve(a.listUserFollowing))
	mux.HandleFunc("GET /api/v1/users/{username}/following/{target}", a.Serve(a.checkUserFollowing))
}

func (a *Handler) followUser(w http.ResponseWriter, r *http.Request) error {
	return a.setFollow(w, r, true)
}

func (a *Handler) unfollowUser(w http.ResponseWriter, r *http.Request) error {
	return a.setFollow(w, r, false)
}

// setFollow follows or unfollows the path's user for the signed-in one;
// 204 either way, and again when nothing changes, as on Gitea.
func (a *Handler) setFollow(w http.ResponseWriter, r *http.Request, on bool) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	target, err := a.accountOf(r, r.PathValue("username"))
	if err != nil {
		return err
	}
	var act chainforge.Action = follows.Follow{User: target}
	if !on {
		act = follows.Unfollow{User: target}
	}
	if _, err := a.Forge.Do(r.Context(), id.User.Address, act); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// checkMyFollowing tells whether the signed-in user follows the path's
// user. It answers 204, or 404 when not (Gitea's answer). The user's own
// answer, GET /users/{username}, tells the same without a 404
// (followed_by_me).
func (a *Handler) checkMyFollowing(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return a.answerFollowing(w, r, id.User.Address, r.PathValue("username"))
}

func (a *Handler) checkUserFollowing(w http.ResponseWriter, r *http.Request) error {
	follower, err := a.accountOf(r, r.PathValue("username"))
	if err != nil {
		return err
	}
	return a.answerFollowing(w, r, follower, r.PathValue("target"))
}

// answerFollowing is 204 when follower follows the account named target,
// else 404, as on Gitea.
func (a *Handler) answerFollowing(w http.ResponseWriter, r *http.Request, follower common.Address, target string) error {
	followed, err := a.accountOf(r, target)
	if err != nil {
		return err
	}
	on, err := a.Forge.Index().IsFollowing(r.Context(), follower, followed)
	if err != nil {
		return err
	}
	if !on {
		return usererr.Missingf("%s is not followed", target)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *Handler) listMyFollowers(w http.ResponseWriter, r *http.Request) error {
	return a.followList(w, r, "", a.Forge.Index().Followers)
}

func (a *Handler) listMyFollowing(w http.ResponseWriter, r *http.Request) error {
	return a.followList(w, r, "", a.Forge.Index().Following)
}

func (a *Handler) listUserFollowers(w http.ResponseWriter, r *http.Request) error {
	return a.followList(w, r, r.PathValue("username"), a.Forge.Index().Followers)
}

func (a *Handler) listUserFollowing(w http.ResponseWriter, r *http.Request) error {
	return a.followList(w, r, r.PathValue("username"), a.Forge.Index().Following)
}

// followList answers a page of the users list reads for username (the
// signed-in user for "").
func (a *Handler) followList(w http.ResponseWriter, r *http.Request, username string,
	list func(ctx context.Context, who common.Address, p index.Page) ([]index.User, int64, error)) error {
	who, err := a.whoOf(r, username)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	users, total, err := list(r.Context(), who, p)
	out := make([]api.ForgeUserJSON, 0, len(users))
	for _, u := range users {
		out = append(out, api.ToForgeUser(r, u))
	}
	return a.RespondList(w, r, p, total, out, err)
}

// whoOf is the account username names, or the signed-in user's for "".
func (a *Handler) whoOf(r *http.Request, username string) (common.Address, error) {
	if username != "" {
		return a.accountOf(r, username)
	}
	id, err := api.RequireUser(r)
	if err != nil {
		return common.Address{}, err
	}
	return id.User.Address, nil
}

// accountOf is the address of the user or organization named name: one
// the chain knows, or a user of this node who has not acted on chain yet
// (they can be followed, and follow, as soon as they sign up).
func (a *Handler) accountOf(r *http.Request, name string) (common.Address, error) {
	// No name holds a control character (and PostgreSQL would fail the
	// look-up of one with NUL): such a name names nobody.
	if tx.CheckLine("username", name) != nil {
		return common.Address{}, usererr.Missingf("There is no user with that name.")
	}
	u, err := a.Auth.UserByName(r.Context(), name)
	if err != nil {
		return common.Address{}, err
	}
	return u.Address, nil
}
