package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// dForge's own: a repository's contributors (commits per author) and the
// counts its page shows.

func (a *API) listContributors(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	if gitstore.IsEmpty(c.Dir) {
		return a.RespondList(w, r, p, 0, []contributorJSON{}, nil)
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
	return a.RespondList(w, r, p, int64(len(merged)), PageSlice(merged, p), nil)
}

// contributorsByAccount counts one person once: commits whose author
// email names an account, by a claim on chain (user.emails), by the
// wallet's address (0xabc...@users.dforge) or by the account's web commit
// address (username@noreply.host), are that account's, under its login.
// Emails that name no account stay as git shows them. Most commits first.
func (a *API) contributorsByAccount(r *http.Request, list []gitstore.Contributor) ([]contributorJSON, error) {
	ctx := r.Context()
	emails := make([]string, 0, len(list))
	for _, c := range list {
		emails = append(emails, strings.ToLower(c.Email))
	}
	claims, err := a.Forge.Index().EmailOwners(ctx, emails)
	if err != nil {
		return nil, err
	}
	out := []contributorJSON{}
	at := map[string]int{} // account address or email: its place in out
	for i, c := range list {
		key, login := "email:"+emails[i], ""
		if addr, ok := a.accountOfEmail(r, emails[i], claims); ok {
			key = addr.Hex()
			login = ToForgeUser(r, a.PersonOf(r, addr)).Login
		}
		if j, ok := at[key]; ok {
			out[j].Commits += c.Commits
			continue
		}
		at[key] = len(out)
		out = append(out, contributorJSON{Name: c.Name, Email: c.Email, Commits: c.Commits, Login: login})
	}
	slices.SortStableFunc(out, func(x, y contributorJSON) int { return y.Commits - x.Commits })
	return out, nil
}

// accountOfEmail is the account a commit email names, if any.
func (a *API) accountOfEmail(r *http.Request, email string, claims map[string]common.Address) (common.Address, bool) {
	if addr, ok := claims[email]; ok {
		return addr, true
	}
	local, domain, _ := strings.Cut(email, "@")
	if len(local) == 42 && strings.HasPrefix(local, "0x") && common.IsHexAddress(local) {
		return common.HexToAddress(local), true
	}
	if strings.HasPrefix(domain, "noreply.") {
		if addr, err := a.Hosting.Owner(r.Context(), local); err == nil {
			return addr, true
		}
	}
	return common.Address{}, false
}

// PersonOf is addr's user as the index names it.
func (a *API) PersonOf(r *http.Request, addr common.Address) index.User {
	if p, err := a.Forge.Index().PersonByAddress(r.Context(), addr); err == nil {
		return p.User
	}
	return index.User{Address: addr.Hex(), Username: a.DefaultName(r.Context(), addr)}
}

func (a *API) getCounts(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	out := countsJSON{Stars: rec.Stars, Forks: rec.Forks, Watchers: rec.Watchers, OpenIssues: rec.OpenIssues, OpenPulls: rec.OpenPulls}
	c, err := a.codeOf(r)
	if err != nil || gitstore.IsEmpty(c.Dir) {
		WriteJSON(w, http.StatusOK, out) // no git data here, or none yet
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
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// WithAccounts fills each commit's author and committer with the account
// its email names, by the rules contributorsByAccount counts with, as
// Gitea links commits to its users; an email that names no account stays
// null.
func (a *API) WithAccounts(r *http.Request, cs []CommitJSON) error {
	emails := make([]string, 0, 2*len(cs))
	for _, c := range cs {
		emails = append(emails, strings.ToLower(c.Commit.Author.Email), strings.ToLower(c.Commit.Committer.Email))
	}
	claims, err := a.Forge.Index().EmailOwners(r.Context(), emails)
	if err != nil {
		return fmt.Errorf("read the accounts of commit emails: %w", err)
	}
	found := map[string]*ForgeUserJSON{}
	account := func(email string) *ForgeUserJSON {
		email = strings.ToLower(email)
		if u, ok := found[email]; ok {
			return u
		}
		var u *ForgeUserJSON
		if addr, ok := a.accountOfEmail(r, email, claims); ok {
			j := ToForgeUser(r, a.PersonOf(r, addr))
			u = &j
		}
		found[email] = u
		return u
	}
	for i := range cs {
		cs[i].Author = account(cs[i].Commit.Author.Email)
		cs[i].Committer = account(cs[i].Commit.Committer.Email)
	}
	return nil
}
