package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"slices"
	"strings"

	"github.com/dforge/dforge/internal/gitstore"
)

// dForge's own: a repository's contributors (commits per author) and the
// counts its page shows.

func (a *Handler) listContributors(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	if gitstore.IsEmpty(c.Dir) {
		return a.RespondList(w, r, p, 0, []api.ContributorJSON{}, nil)
	}
	commit, _, err := a.resolve(r, c, r.URL.Query().Get("ref"))
	if err != nil {
		return err
	}
	list, err := gitstore.Contributors(r.Context(), c.Dir, commit)
	if err != nil {
		return err
	}
	merged, err := a.contributorsByAccount(r, list)
	if err != nil {
		return err
	}
	return a.RespondList(w, r, p, int64(len(merged)), api.PageSlice(merged, p), nil)
}

// contributorsByAccount counts one person once: commits whose author
// email names an account, by a claim on chain (user.emails), by the
// wallet's address (0xabc...@users.dforge) or by the account's web commit
// address (username@noreply.host), are that account's, under its login.
// Emails that name no account stay as git shows them. Most commits first.
func (a *Handler) contributorsByAccount(r *http.Request, list []gitstore.Contributor) ([]api.ContributorJSON, error) {
	ctx := r.Context()
	emails := make([]string, 0, len(list))
	for _, c := range list {
		emails = append(emails, strings.ToLower(c.Email))
	}
	claims, err := a.Forge.Index().EmailOwners(ctx, emails)
	if err != nil {
		return nil, err
	}
	out := []api.ContributorJSON{}
	at := map[string]int{} // account address or email: its place in out
	for i, c := range list {
		key, login := "email:"+emails[i], ""
		if addr, ok := a.AccountOfEmail(r, emails[i], claims); ok {
			key = addr.Hex()
			login = api.ToForgeUser(r, a.PersonOf(r, addr)).Login
		}
		if j, ok := at[key]; ok {
			out[j].Commits += c.Commits
			continue
		}
		at[key] = len(out)
		out = append(out, api.ContributorJSON{Name: c.Name, Email: c.Email, Commits: c.Commits, Login: login})
	}
	slices.SortStableFunc(out, func(x, y api.ContributorJSON) int { return y.Commits - x.Commits })
	return out, nil
}

func (a *Handler) getCounts(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	out := api.CountsJSON{Stars: rec.Stars, Forks: rec.Forks, Watchers: rec.Watchers, OpenIssues: rec.OpenIssues, OpenPulls: rec.OpenPulls}
	c, err := a.codeOf(r)
	if err != nil || gitstore.IsEmpty(c.Dir) {
		api.WriteJSON(w, http.StatusOK, out) // no git data here, or none yet
		return nil
	}
	ctx := r.Context()
	refs, err := gitstore.RefNames(ctx, c.Dir, "refs/")
	if err != nil {
		return err
	}
	for _, ref := range refs {
		switch {
		case strings.HasPrefix(ref.Name, "refs/heads/"):
			out.Branches++
		case strings.HasPrefix(ref.Name, "refs/tags/"):
			out.Tags++
		}
	}
	if commit, _, err := a.resolve(r, c, ""); err == nil {
		if out.Commits, err = gitstore.Count(ctx, c.Dir, commit, ""); err != nil {
			return err
		}
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}
