package chainapi

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/chain/bounty"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Bounties (a dForge extension): reads of the chain's issue bounties from
// the index. Funding and refunding are BountyFund and BountyRefund
// transactions the funder's wallet signs and POST /chain/txs relays; that
// endpoint gives their refusals the statuses and fields of bountyRefusal.

func (a *Handler) RegisterBounties(mux *http.ServeMux) {
	if a.Index == nil || a.Hosting == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/bounties", a.Serve(a.listBounties))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/issues/{index}/bounty", a.Serve(a.getIssueBounty))
}

// listBounties lists open bounties by value, or paid ones newest first,
// each with its repository's main language; repo=owner/name narrows to one
// repository and language= (any case) to the repositories whose main
// language it is: the one with the most bytes of code at the head of the
// default branch, as /languages counts them.
func (a *Handler) listBounties(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := index.BountyFilter{Status: q.Get("state")}
	switch f.Status {
	case "":
		f.Status = bounty.StatusOpen
	case bounty.StatusOpen, bounty.StatusPaid:
	default:
		return usererr.Unprocessablef("state", "invalid_state", "state must be open or paid")
	}
	if full := q.Get("repo"); full != "" {
		owner, name, ok := strings.Cut(full, "/")
		if !ok || owner == "" || name == "" {
			return usererr.Unprocessablef("repo", "invalid_repo", "repo must be owner/name")
		}
		repo, _, err := a.Hosting.Repo(r.Context(), api.ViewerOf(r), owner, name)
		if err != nil {
			return err
		}
		f.RepoID = repo.ID
	}
	lang, err := languageParam(q.Get("language"))
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	if lang != "" {
		if f.RepoIDs, err = a.reposInLanguage(r.Context(), api.ViewerOf(r), f.Status, lang); err != nil {
			return err
		}
	}
	list, total, err := a.Index.Bounties(r.Context(), f, p)
	if err == nil {
		err = a.withLanguages(r.Context(), api.ViewerOf(r), list)
	}
	return a.RespondList(w, r, p, total, list, err)
}

// getIssueBounty is an issue's bounty with its funders: status "none" and
// a zero total for a public issue nobody funded. A private repository's
// issues never have one (they are not on chain), so they are 404 like
// unknown ones; so are pull requests.
func (a *Handler) getIssueBounty(w http.ResponseWriter, r *http.Request) error {
	repo, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	n, err := strconv.ParseUint(r.PathValue("index"), 10, 64)
	if err != nil || n == 0 || repo.Private {
		return api.IssueNotFound(r.PathValue("index"))
	}
	is, err := a.Forge.Index().Issue(r.Context(), repo.ID, n)
	if err != nil {
		return err
	}
	if is.IsPull {
		return usererr.Missingf("#%d is a pull request: bounties are for issues", n)
	}
	b, ok, err := a.Index.BountyOf(r.Context(), repo.ID, n)
	if err != nil {
		return err
	}
	if !ok {
		b = index.Bounty{Repo: repo.Owner.Username + "/" + repo.Name, RepoID: repo.ID, Number: n, Title: is.Title, IssueState: is.State, Status: "none", Funders: []index.Funder{}}
	}
	if b.Language, err = a.mainLanguage(r.Context(), repo); err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, b)
	return nil
}

// bountyRefusal gives a refused BountyFund or BountyRefund the status and
// field a client shows: 404 for an issue the chain does not know (private
// repositories' issues included), 422 naming the field otherwise.
func bountyRefusal(kind string, e *tx.Error) (status int, field string, ok bool) {
	if kind != string(tx.KindBountyFund) && kind != string(tx.KindBountyRefund) {
		return 0, "", false
	}
	switch e.Code {
	case tx.CodeNotFound:
		return http.StatusNotFound, "issue", true
	case tx.CodeBountyNotOpen, tx.CodeBountyNotIssue, tx.CodeBountyNoShare:
		return http.StatusUnprocessableEntity, "issue", true
	case tx.CodeBountyNotExpired:
		return http.StatusUnprocessableEntity, "expiry", true
	case tx.CodeNonPositiveAmount, tx.CodeInsufficientFunds:
		return http.StatusUnprocessableEntity, "amount", true
	case tx.CodeInvalidField:
		// The message names the field: `field "expiry" ...`.
		if _, rest, found := strings.Cut(e.Message, `field "`); found {
			if name, _, found := strings.Cut(rest, `"`); found {
				return http.StatusUnprocessableEntity, name, true
			}
		}
		return http.StatusUnprocessableEntity, "", true
	}
	return 0, "", false
}
