package api

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

func (a *API) listRewards(w http.ResponseWriter, r *http.Request) {
	var account *common.Address
	if v := r.URL.Query().Get("account"); v != "" {
		addr, err := parseAddress("account", v)
		if err != nil {
			a.writeError(w, r, err)
			return
		}
		account = &addr
	}
	p, err := pageOf(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	list, total, err := a.index.Rewards(r.Context(), account, p)
	a.respondList(w, r, p, total, list, err)
}

// reputationJSON is an account's reputation, its accepted contributions
// and what they earned.
type reputationJSON struct {
	Address       string       `json:"address"`
	Reputation    uint64       `json:"reputation"`
	MultiplierBps uint64       `json:"multiplier_bps"`
	Scores        index.Scores `json:"scores"`
	Earned        uint64       `json:"earned"`
	Withheld      uint64       `json:"withheld"`
}

// getReputation reads the score and multiplier from the chain (they decay
// each epoch, which no event reports) and the contributions from the index.
func (a *API) getReputation(w http.ResponseWriter, r *http.Request) {
	addr, err := pathAddress(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	s, err := a.chain.Standing(addr)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	totals, err := a.index.RewardTotals(r.Context(), addr)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, reputationJSON{Address: addr.Hex(), Reputation: s.Reputation, MultiplierBps: s.MultiplierBps,
		Scores: totals.Scores, Earned: totals.Earned, Withheld: totals.Withheld})
}

// leaderboardPeriods are the periods a leaderboard covers, back from the
// newest block's time (0: the whole chain).
var leaderboardPeriods = map[string]time.Duration{"week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour, "all": 0}

func (a *API) getLeaderboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name := q.Get("period")
	if name == "" {
		name = "all"
	}
	period, ok := leaderboardPeriods[name]
	if !ok {
		a.writeError(w, r, usererr.InvalidField("period", "invalid_period", "period must be week, month or all"))
		return
	}
	limit := defaultLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			a.writeError(w, r, usererr.InvalidField("limit", "invalid_limit", fmt.Sprintf("limit must be a whole number from 1 to %d (0 is the default, %d)", maxLimit, defaultLimit)))
			return
		}
		if n > 0 {
			limit = min(n, maxLimit)
		}
	}
	ranks, err := a.index.Leaderboard(r.Context(), period, limit)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	addrs := make([]common.Address, len(ranks))
	for i, rk := range ranks {
		addrs[i] = common.HexToAddress(rk.Address)
	}
	standings, err := a.chain.Standings(addrs...)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	for i := range ranks {
		ranks[i].Reputation = standings[i].Reputation
	}
	writeJSON(w, http.StatusOK, ranks)
}

func (a *API) getGovernanceFigures(w http.ResponseWriter, r *http.Request) {
	f, err := a.index.GovFigures(r.Context())
	a.respond(w, r, f, err)
}
