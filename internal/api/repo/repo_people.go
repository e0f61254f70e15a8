package repo

import (
	"context"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// A repository's languages, and the people who may be assigned issues or
// asked for reviews: those with write permission (Gitea's assignees and
// reviewers).

func (a *Handler) RegisterRepoPeople(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/languages", a.Serve(a.getLanguages))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/assignees", a.Serve(a.listAssignees))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/reviewers", a.Serve(a.listReviewers))
}

// getLanguages is Gitea's {"Go": bytes, ...} of the default branch; an
// empty repository has none.
func (a *Handler) getLanguages(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	if gitstore.IsEmpty(c.Dir) {
		return api.Reply(w, map[string]int64{})
	}
	commit, _, err := a.resolve(r, c, "")
	if err != nil {
		return err
	}
	langs, err := gitstore.Languages(r.Context(), c.Dir, commit)
	if err != nil {
		return err
	}
	return api.Reply(w, langs)
}

func (a *Handler) listAssignees(w http.ResponseWriter, r *http.Request) error {
	return a.listWriters(w, r, common.Address{})
}

// listReviewers is the writers but the caller: nobody reviews for themself.
func (a *Handler) listReviewers(w http.ResponseWriter, r *http.Request) error {
	return a.listWriters(w, r, api.ViewerOf(r))
}

// listWriters answers Gitea's unpaged list of the users with write
// permission on the path's repository, by name, but except.
func (a *Handler) listWriters(w http.ResponseWriter, r *http.Request, except common.Address) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	users, err := a.writers(r.Context(), rec)
	if err != nil {
		return err
	}
	out := []api.ForgeUserJSON{}
	for _, u := range users {
		if common.HexToAddress(u.Address) != except {
			out = append(out, api.ToForgeUser(r, u))
		}
	}
	slices.SortFunc(out, func(x, y api.ForgeUserJSON) int {
		return strings.Compare(strings.ToLower(x.Login), strings.ToLower(y.Login))
	})
	return api.Reply(w, out)
}

// writers are the users with write permission on rec: its owner (a
// user), its collaborators and the members of its organization's teams,
// each kept when the forge's own rule (Permission) says write or more.
func (a *Handler) writers(ctx context.Context, rec index.Repo) ([]index.User, error) {
	ix := a.Forge.Index()
	var candidates []index.User
	if o, ok, err := ix.OrgAt(ctx, rec.OwnerAddress()); err != nil {
		return nil, err
	} else if ok { // an organization is no person: its teams' members are
		members, _, err := ix.OrgMembers(ctx, o.ID, index.Page{Number: 1, Limit: maxOrgMembers})
		if err != nil {
			return nil, err
		}
		candidates = append(candidates, members...)
	} else {
		candidates = append(candidates, rec.Owner)
	}
	collaborators, err := ix.Collaborators(ctx, rec.ID)
	if err != nil {
		return nil, err
	}
	for _, c := range collaborators {
		candidates = append(candidates, c.User)
	}
	seen := map[string]bool{}
	var out []index.User
	for _, u := range candidates {
		if !common.IsHexAddress(u.Address) || seen[strings.ToLower(u.Address)] {
			continue
		}
		seen[strings.ToLower(u.Address)] = true
		p, err := a.Forge.Permission(ctx, rec, common.HexToAddress(u.Address))
		if err != nil {
			return nil, err
		}
		if p >= forge.PermWrite {
			out = append(out, u)
		}
	}
	return out, nil
}

// maxOrgMembers bounds the organization members weighed as writers.
const maxOrgMembers = 1000
