package repo

import (
	"context"
	"github.com/dforge/dforge/internal/api"
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Stars and watches: the signed-in user's star and subscription on a
// repository, and who stars and watches it.

// flagRepo stars, unstars, watches or unwatches for the signed-in user.
func (a *Handler) flagRepo(action string, status int) api.Endpoint {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := api.RequireUser(r)
		if err != nil {
			return err
		}
		rec, _, err := a.RepoOf(r)
		if err != nil {
			return err
		}
		if _, err := a.Forge.Do(r.Context(), id.User.Address, flagAction(action, chainforge.RepoRef{Repo: rec.ID})); err != nil {
			return err
		}
		if status == http.StatusOK { // a watch answers with the subscription
			return api.Reply(w, api.WatchInfo(r, rec, true))
		}
		w.WriteHeader(status)
		return nil
	}
}

// getStarred tells whether the signed-in user stars the repository. It
// answers 204, or 404 when not (Gitea's answer). The repository's own answer tells the
// same without a 404 (starred_by_me).
func (a *Handler) getStarred(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.flagOf(r, a.Forge.Index().Starred, "you have not starred this repository"); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// getSubscription tells whether the signed-in user watches the repository.
// It answers the watch, or 404 when there is none (Gitea's answer). The
// owner, collaborators with write or maintain and an organization's owners
// watch by default until they unwatch. The repository's own answer tells
// the same without a 404 (watched_by_me).
func (a *Handler) getSubscription(w http.ResponseWriter, r *http.Request) error {
	rec, err := a.flagOf(r, a.Forge.Index().Watching, "you are not watching this repository")
	if err != nil {
		return err
	}
	return api.Reply(w, api.WatchInfo(r, rec, true))
}

// flagOf is the path's repository if the signed-in user has set the flag
// isSet reads on it (a star, a watch), else a 404 saying missing.
func (a *Handler) flagOf(r *http.Request, isSet func(context.Context, uint64, common.Address) (bool, error), missing string) (index.Repo, error) {
	id, err := api.RequireUser(r)
	if err != nil {
		return index.Repo{}, err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return index.Repo{}, err
	}
	on, err := isSet(r.Context(), rec.ID, id.User.Address)
	if err != nil {
		return index.Repo{}, err
	}
	if !on {
		return index.Repo{}, usererr.Missingf("%s", missing)
	}
	return rec, nil
}

// userList answers a page of users read by list.
func (a *Handler) userList(w http.ResponseWriter, r *http.Request, list func(index.Repo, index.Page) ([]index.User, int64, error)) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	users, total, err := list(rec, p)
	out := make([]api.ForgeUserJSON, 0, len(users))
	for _, u := range users {
		out = append(out, api.ToForgeUser(r, u))
	}
	return a.RespondList(w, r, p, total, out, err)
}

func (a *Handler) listStargazers(w http.ResponseWriter, r *http.Request) error {
	return a.userList(w, r, func(rec index.Repo, p index.Page) ([]index.User, int64, error) {
		return a.Forge.Index().Stargazers(r.Context(), rec.ID, p)
	})
}

// listSubscribers lists who watches the repository. Those who asked to
// come first, newest first, then those who watch it by default (its owner,
// collaborators with write or maintain, an organization's owners) and have
// not unwatched it.
func (a *Handler) listSubscribers(w http.ResponseWriter, r *http.Request) error {
	return a.userList(w, r, func(rec index.Repo, p index.Page) ([]index.User, int64, error) {
		return a.Forge.Index().Watchers(r.Context(), rec.ID, p)
	})
}

// flagAction is the typed action of a star or watch route (the name is in
// the route list, where the OpenAPI generator reads it).
func flagAction(name string, r chainforge.RepoRef) chainforge.Action {
	switch name {
	case "repo.star":
		return chainforge.RepoStar(r)
	case "repo.unstar":
		return chainforge.RepoUnstar(r)
	case "repo.watch":
		return chainforge.RepoWatch(r)
	default:
		return chainforge.RepoUnwatch(r)
	}
}
