package api

import (
	"net/http"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Stars and watches: the signed-in user's star and subscription on a
// repository, and who stars and watches it.

// flagRepo stars, unstars, watches or unwatches for the signed-in user.
func (a *API) flagRepo(action string, status int) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := requireUser(r)
		if err != nil {
			return err
		}
		rec, _, err := a.repoOf(r)
		if err != nil {
			return err
		}
		if _, err := a.forge.Do(r.Context(), id.User.Address, flagAction(action, chainforge.RepoRef{Repo: rec.ID})); err != nil {
			return err
		}
		if status == http.StatusOK { // a watch answers with the subscription
			return reply(w, watchInfo(r, rec, true))
		}
		w.WriteHeader(status)
		return nil
	}
}

func (a *API) getStarred(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.repoOf(r)
	if err != nil {
		return err
	}
	starred, err := a.forge.Index().Starred(r.Context(), rec.ID, id.User.Address)
	if err != nil {
		return err
	}
	if !starred {
		return usererr.Missingf("you have not starred this repository")
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) getSubscription(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.repoOf(r)
	if err != nil {
		return err
	}
	on, err := a.forge.Index().Watching(r.Context(), rec.ID, id.User.Address)
	if err != nil {
		return err
	}
	if !on {
		return usererr.Missingf("you are not watching this repository")
	}
	return reply(w, watchInfo(r, rec, true))
}

// userList answers a page of users read by list.
func (a *API) userList(w http.ResponseWriter, r *http.Request, list func(index.Repo, index.Page) ([]index.User, int64, error)) error {
	rec, _, err := a.repoOf(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	users, total, err := list(rec, p)
	out := make([]forgeUserJSON, 0, len(users))
	for _, u := range users {
		out = append(out, toForgeUser(r, u))
	}
	return a.respondList(w, r, p, total, out, err)
}

func (a *API) listStargazers(w http.ResponseWriter, r *http.Request) error {
	return a.userList(w, r, func(rec index.Repo, p index.Page) ([]index.User, int64, error) {
		return a.forge.Index().Stargazers(r.Context(), rec.ID, p)
	})
}

func (a *API) listSubscribers(w http.ResponseWriter, r *http.Request) error {
	return a.userList(w, r, func(rec index.Repo, p index.Page) ([]index.User, int64, error) {
		return a.forge.Index().Watchers(r.Context(), rec.ID, p)
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
