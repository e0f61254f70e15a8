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

func (a *API) listRewards(w http.ResponseWriter, r *http.Request) error {
	var account *common.Address
	if v := r.URL.Query().Get("account"); v != "" {
		addr, err := parseAddress("account", v)
		if err != nil {
			return err
		}
		account = &addr
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.index.Rewards(r.Context(), account, p)
	return a.respondList(w, r, p, total, list, err)
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
func (a *API) getReputation(w http.ResponseWriter, r *http.Request) error {
	addr, err := pathAddress(r)
	if err != nil {
		return err
	}
	s, err := a.chain.Standing(addr)
	if err != nil {
		return err
	}
	totals, err := a.index.RewardTotals(r.Context(), addr)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, reputationJSON{Address: addr.Hex(), Reputation: s.Reputation, MultiplierBps: s.MultiplierBps,
		Scores: totals.Scores, Earned: totals.Earned, Withheld: totals.Withheld})
	return nil
}

// leaderboardPeriods are the periods a leaderboard covers, back from the
// newest block's time (0: the whole chain).
var leaderboardPeriods = map[string]time.Duration{"week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour, "all": 0}

func (a *API) getLeaderboard(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	name := q.Get("period")
	if name == "" {
		name = "all"
	}
	period, ok := leaderboardPeriods[name]
	if !ok {
		return usererr.InvalidField("period", "invalid_period", "period must be week, month or all")
	}
	limit := defaultLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return usererr.InvalidField("limit", "invalid_limit", fmt.Sprintf("limit must be a whole number from 1 to %d (0 is the default, %d)", maxLimit, defaultLimit))
		}
		if n > 0 {
			limit = min(n, maxLimit)
		}
	}
	ranks, err := a.index.Leaderboard(r.Context(), period, limit)
	if err != nil {
		return err
	}
	addrs := make([]common.Address, len(ranks))
	for i, rk := range ranks {
		addrs[i] = common.HexToAddress(rk.Address)
	}
	standings, err := a.chain.Standings(addrs...)
	if err != nil {
		return err
	}
	for i := range ranks {
		ranks[i].Reputation = standings[i].Reputation
	}
	writeJSON(w, http.StatusOK, ranks)
	return nil
}

func (a *API) getGovernanceFigures(w http.ResponseWriter, r *http.Request) error {
	f, err := a.index.GovFigures(r.Context())
	return a.respond(w, r, f, err)
}
