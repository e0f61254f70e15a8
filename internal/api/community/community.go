package community

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// The community (dForge extensions): who holds the community roles, and
// the live figures of the community page, both from the SQL projection.

func (a *Handler) RegisterCommunity(mux *http.ServeMux) {
	if a.Index == nil || a.Forge == nil || a.Chain == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/community/roles", a.Serve(a.listRoleHolders))
	mux.HandleFunc("GET /api/v1/community/overview", a.Serve(a.getCommunityOverview))
}

// roleHolderJSON is a role's holder with their public profile.
type roleHolderJSON struct {
	User api.UserJSON `json:"user"`
	Role string       `json:"role"`
	// Height is the block the role was granted in (the genesis height for
	// a genesis holder); Proposal the role proposal that granted it, 0 for
	// a genesis holder.
	Height   int64  `json:"height"`
	Proposal uint64 `json:"proposal"`
	Granted  string `json:"granted"`
}

// listRoleHolders lists the holders of ?role (every role when absent),
// the longest-standing first.
func (a *Handler) listRoleHolders(w http.ResponseWriter, r *http.Request) error {
	role := r.URL.Query().Get("role")
	if role != "" && !roles.Valid(role) {
		return usererr.InvalidField("role", "invalid_role", "role must be one of "+strings.Join(roles.All, ", "))
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Index.RoleHolders(r.Context(), role, p)
	if err != nil {
		return err
	}
	out := make([]roleHolderJSON, len(list))
	for i, h := range list {
		out[i] = roleHolderJSON{User: api.PersonJSON(r, h.Person), Role: h.Role, Height: h.Height, Proposal: h.Proposal, Granted: h.Granted}
	}
	return a.RespondList(w, r, p, total, out, nil)
}

// communityOverviewJSON are the community page's figures; see
// index.CommunityOverview for what each counts.
type communityOverviewJSON struct {
	Height          int64              `json:"height"`
	Repositories    int64              `json:"repositories"`
	Contributors    int64              `json:"contributors"`
	Proposals       int64              `json:"proposals"`
	OpenProposals   int64              `json:"open_proposals"`
	WindowDays      int                `json:"window_days"`
	Trending        []trendingRepoJSON `json:"trending"`
	MostStarred     []api.RepoJSON     `json:"most_starred"`
	TopContributors []index.Rank       `json:"top_contributors"`
	Roles           []roleCountJSON    `json:"roles"`
	// Topics counts the forum's topics; LatestTopics are its newest and
	// UpcomingEvents the next events of the calendar (by the wall clock).
	Topics         int64            `json:"topics"`
	LatestTopics   []forumTopicJSON `json:"latest_topics"`
	UpcomingEvents []eventJSON      `json:"upcoming_events"`
}

// trendingRepoJSON is a repository and what it gained in the window.
type trendingRepoJSON struct {
	Repository     api.RepoJSON `json:"repository"`
	RecentStars    int64        `json:"recent_stars"`
	RecentActivity int64        `json:"recent_activity"`
}

type roleCountJSON struct {
	Role    string `json:"role"`
	Holders int64  `json:"holders"`
}

func (a *Handler) getCommunityOverview(w http.ResponseWriter, r *http.Request) error {
	o, err := a.Index.CommunityOverview(r.Context())
	if err != nil {
		return err
	}
	j := communityOverviewJSON{Height: o.Height, Repositories: o.Repositories, Contributors: o.Contributors, Proposals: o.Proposals,
		OpenProposals: o.OpenProposals, WindowDays: int(index.CommunityWindow.Hours() / 24),
		Roles: make([]roleCountJSON, len(o.RoleCounts))}
	if j.Trending, err = a.trendingJSON(r, o.Trending); err != nil {
		return err
	}
	if j.MostStarred, err = a.ReposJSON(r, o.MostStarred); err != nil {
		return err
	}
	if j.TopContributors, err = a.withReputation(o.TopContributors); err != nil {
		return err
	}
	for i, c := range o.RoleCounts {
		j.Roles[i] = roleCountJSON{Role: c.Role, Holders: c.Holders}
	}
	if err := a.communityForumAndEvents(r, &j); err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, j)
	return nil
}

// communityLatest is how many topics and events the overview lists.
const communityLatest = 5

// communityForumAndEvents adds the forum's figures and the next events;
// "next" depends on the clock, so these are read per request rather than
// kept with the overview.
func (a *Handler) communityForumAndEvents(r *http.Request, j *communityOverviewJSON) error {
	ctx := r.Context()
	var err error
	if j.Topics, err = a.Index.Forum().TopicCount(ctx); err != nil {
		return err
	}
	topics, err := a.Index.Forum().LatestTopics(ctx, communityLatest)
	if err != nil {
		return err
	}
	j.LatestTopics = make([]forumTopicJSON, len(topics))
	for i, t := range topics {
		j.LatestTopics[i] = toForumTopicJSON(r, t)
	}
	events, err := a.Index.Calendar().UpcomingEvents(ctx, time.Now().Unix(), communityLatest)
	if err != nil {
		return err
	}
	j.UpcomingEvents, err = a.eventsJSON(r, events)
	return err
}

// trendingJSON shapes the trending repositories as reposJSON does, which
// leaves out those this node's moderators hid.
func (a *Handler) trendingJSON(r *http.Request, list []index.TrendingRepo) ([]trendingRepoJSON, error) {
	repos := make([]index.Repo, len(list))
	recent := make(map[uint64]index.TrendingRepo, len(list))
	for i, t := range list {
		repos[i], recent[t.ID] = t.Repo, t
	}
	shaped, err := a.ReposJSON(r, repos)
	if err != nil {
		return nil, err
	}
	out := make([]trendingRepoJSON, len(shaped))
	for i, rj := range shaped {
		t := recent[rj.ID]
		out[i] = trendingRepoJSON{Repository: rj, RecentStars: t.RecentStars, RecentActivity: t.RecentActivity}
	}
	return out, nil
}

// withReputation copies ranks with each account's current reputation,
// which decays each epoch and so is read from the chain.
func (a *Handler) withReputation(ranks []index.Rank) ([]index.Rank, error) {
	out := append([]index.Rank{}, ranks...) // the index keeps its answer
	addrs := make([]common.Address, len(out))
	for i, rk := range out {
		addrs[i] = common.HexToAddress(rk.Address)
	}
	standings, err := a.Chain.Standings(addrs...)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Reputation = standings[i].Reputation
	}
	return out, nil
}
