package chainapi

import (
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

func (a *Handler) listRewards(w http.ResponseWriter, r *http.Request) error {
	var account *common.Address
	if v := r.URL.Query().Get("account"); v != "" {
		addr, err := parseAddress("account", v)
		if err != nil {
			return err
		}
		account = &addr
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Index.Rewards(r.Context(), account, p)
	return a.RespondList(w, r, p, total, list, err)
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
func (a *Handler) getReputation(w http.ResponseWriter, r *http.Request) error {
	addr, err := pathAddress(r)
	if err != nil {
		return err
	}
	s, err := a.Chain.Standing(addr)
	if err != nil {
		return err
	}
	totals, err := a.Index.RewardTotals(r.Context(), addr)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, reputationJSON{Address: addr.Hex(), Reputation: s.Reputation, MultiplierBps: s.MultiplierBps,
		Scores: totals.Scores, Earned: totals.Earned, Withheld: totals.Withheld})
	return nil
}

// leaderboardPeriods are the periods a leaderboard covers, back from the
// newest block's time (0: the whole chain).
var leaderboardPeriods = map[string]time.Duration{"week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour, "all": 0}

func (a *Handler) getLeaderboard(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	name := q.Get("period")
	if name == "" {
		name = "all"
	}
	period, ok := leaderboardPeriods[name]
	if !ok {
		return usererr.InvalidField("period", "invalid_period", "period must be week, month or all")
	}
	limit := api.DefaultLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return usererr.InvalidField("limit", "invalid_limit", fmt.Sprintf("limit must be a whole number from 1 to %d (0 is the default, %d)", api.MaxLimit, api.DefaultLimit))
		}
		if n > 0 {
			limit = min(n, api.MaxLimit)
		}
	}
	ranks, err := a.Index.Leaderboard(r.Context(), period, limit)
	if err != nil {
		return err
	}
	addrs := make([]common.Address, len(ranks))
	for i, rk := range ranks {
		addrs[i] = common.HexToAddress(rk.Address)
	}
	standings, err := a.Chain.Standings(addrs...)
	if err != nil {
		return err
	}
	for i := range ranks {
		ranks[i].Reputation = standings[i].Reputation
	}
	api.WriteJSON(w, http.StatusOK, ranks)
	return nil
}

func (a *Handler) getGovernanceFigures(w http.ResponseWriter, r *http.Request) error {
	f, err := a.Index.GovFigures(r.Context())
	return a.Respond(w, r, f, err)
}
