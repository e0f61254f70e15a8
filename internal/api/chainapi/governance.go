package chainapi

import (
	"context"
	"errors"
	"github.com/dforge/dforge/internal/api"
	"html"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Governance, rewards and reputation: proposals and votes, rewards and the
// leaderboard come from the SQL projection; voting power and reputation
// from the chain's committed state, which alone keeps their history.

// RegisterGovernance adds the governance and rewards routes (the chain is present).
func (a *Handler) RegisterGovernance(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/chain/param-docs", a.Serve(a.listParamDocs))
	mux.HandleFunc("GET /api/v1/governance/power/{address}", a.Serve(a.getVotingPower))
	if a.Index == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/governance/proposals", a.Serve(a.listProposals))
	mux.HandleFunc("GET /api/v1/governance/proposals/{id}", a.Serve(a.getProposal))
	mux.HandleFunc("GET /api/v1/governance/proposals/{id}/votes", a.Serve(a.listVotes))
	mux.HandleFunc("GET /api/v1/rewards", a.Serve(a.listRewards))
	mux.HandleFunc("GET /api/v1/accounts/{address}/reputation", a.Serve(a.getReputation))
	mux.HandleFunc("GET /api/v1/leaderboard", a.Serve(a.getLeaderboard))
	mux.HandleFunc("GET /api/v1/analytics/governance", a.Serve(a.getGovernanceFigures))
	a.RegisterGrants(mux)
}

// paramDoc is a changeable parameter with its current and default values.
// Values and bounds are decimal strings: some bounds pass 2^53.
type paramDoc struct {
	Name    string `json:"name"`
	Group   string `json:"group"`
	Value   string `json:"value"`
	Default string `json:"default"`
	Min     string `json:"min"`
	Max     string `json:"max"`
	Unit    string `json:"unit"`
	Doc     string `json:"doc"`
}

func (a *Handler) listParamDocs(w http.ResponseWriter, r *http.Request) error {
	cur, defaults := a.Chain.Params(), params.Defaults()
	docs := []paramDoc{}
	for _, d := range params.Docs() {
		v, _ := cur.Get(d.Name)
		def, _ := defaults.Get(d.Name)
		docs = append(docs, paramDoc{Name: d.Name, Group: d.Group, Value: strconv.FormatUint(v, 10), Default: strconv.FormatUint(def, 10),
			Min: strconv.FormatUint(d.Min, 10), Max: strconv.FormatUint(d.Max, 10), Unit: d.Unit, Doc: d.Doc})
	}
	api.WriteJSON(w, http.StatusOK, docs)
	return nil
}

// proposalJSON is a proposal with its description rendered.
type proposalJSON struct {
	index.Proposal
	DescriptionHTML string `json:"description_html"`
}

func (a *Handler) proposalJSON(ctx context.Context, p index.Proposal) proposalJSON {
	return proposalJSON{Proposal: p, DescriptionHTML: a.renderDescription(ctx, p.Description)}
}

// renderDescription renders a proposal's Markdown description, sanitized.
func (a *Handler) renderDescription(ctx context.Context, md string) string {
	if a.Markdown == nil { // a node without the site's renderer: plain text
		if strings.TrimSpace(md) == "" {
			return ""
		}
		return "<p>" + html.EscapeString(md) + "</p>"
	}
	return a.RenderBody(ctx, nil, md)
}

func (a *Handler) listProposals(w http.ResponseWriter, r *http.Request) error {
	status := r.URL.Query().Get("status")
	if status != "" && !slices.Contains(index.ProposalStatuses, status) {
		return usererr.InvalidField("status", "invalid_status", "status must be one of "+strings.Join(index.ProposalStatuses, ", "))
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Index.Proposals(r.Context(), status, p)
	out := make([]proposalJSON, len(list))
	for i, pr := range list {
		out[i] = a.proposalJSON(r.Context(), pr)
	}
	return a.RespondList(w, r, p, total, out, err)
}

func (a *Handler) getProposal(w http.ResponseWriter, r *http.Request) error {
	id, err := proposalID(r.PathValue("id"))
	if err != nil {
		return err
	}
	p, err := a.Index.Proposal(r.Context(), id)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, a.proposalJSON(r.Context(), p))
	return nil
}

func (a *Handler) listVotes(w http.ResponseWriter, r *http.Request) error {
	id, err := proposalID(r.PathValue("id"))
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	var voter *common.Address
	if raw := r.URL.Query().Get("voter"); raw != "" {
		addr, err := parseAddress("voter", raw)
		if err != nil {
			return err
		}
		voter = &addr
	}
	if _, err := a.Index.Proposal(r.Context(), id); err != nil {
		return err
	}
	votes, total, err := a.Index.Votes(r.Context(), id, voter, p)
	return a.RespondList(w, r, p, total, votes, err)
}

// votingPower is an account's voting power and what makes it up.
type votingPower struct {
	Address       string `json:"address"`
	Stake         uint64 `json:"stake"`
	Reputation    uint64 `json:"reputation"`
	MultiplierBps uint64 `json:"multiplierBps"`
	Power         uint64 `json:"power"`
	// Proposal is the proposal whose snapshot the figures are; null: now.
	Proposal *uint64 `json:"proposal"`
}

// getVotingPower reads an account's voting power from the chain: now, or
// with ?proposal= as that proposal counts it (the stake and reputation
// at the start of the block it was made in).
func (a *Handler) getVotingPower(w http.ResponseWriter, r *http.Request) error {
	addr, err := pathAddress(r)
	if err != nil {
		return err
	}
	var proposal *uint64
	if raw := r.URL.Query().Get("proposal"); raw != "" {
		id, err := proposalIDField("proposal", raw)
		if err != nil {
			return err
		}
		proposal = &id
	}
	s, err := a.standing(addr, proposal)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, votingPower{Address: addr.Hex(), Stake: s.Stake, Reputation: s.Reputation,
		MultiplierBps: s.MultiplierBps, Power: s.Power, Proposal: proposal})
	return nil
}

// standing reads addr's standing now, or on proposal when not nil.
func (a *Handler) standing(addr common.Address, proposal *uint64) (app.Standing, error) {
	if proposal == nil {
		return a.Chain.Standing(addr)
	}
	s, err := a.Chain.StandingOn(addr, *proposal)
	if errors.Is(err, gov.ErrNotFound) {
		return s, usererr.Missingf("there is no proposal #%d", *proposal)
	}
	return s, err
}

func proposalID(raw string) (uint64, error) { return proposalIDField("id", raw) }

func proposalIDField(field, raw string) (uint64, error) {
	id, err := strconv.ParseUint(raw, 10, 63)
	if err != nil || id < 1 {
		return 0, usererr.InvalidField(field, "invalid_id", field+" must be a proposal number from 1 up")
	}
	return id, nil
}
