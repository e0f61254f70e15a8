package issue

import (
	"context"
	"github.com/dforge/dforge/internal/api"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitea/convert"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// A repository's milestones (Gitea's paths and shapes): writers manage
// them with milestone.* actions; {id} is a milestone's id or its title, as
// Gitea allows.

// listMilestones lists a repository's milestones, open ones by default
// (state=closed or all for the others), name filtering by title.
func (h *Handler) listMilestones(w http.ResponseWriter, r *http.Request) error {
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	f := index.MilestoneFilter{Name: strings.TrimSpace(r.URL.Query().Get("name"))}
	if f.State, err = api.StateFilter(r); err != nil {
		return err
	}
	all, err := h.Forge.Index().Milestones(r.Context(), repo.ID, f)
	if err != nil {
		return err
	}
	page := api.PageSlice(all, p)
	out := make([]api.MilestoneJSON, len(page))
	for i, m := range page {
		out[i] = convert.Milestone(m)
	}
	return h.RespondList(w, r, p, int64(len(all)), out, nil)
}

// findMilestone resolves key, a milestone's id or title (any case), in
// repo.
func (h *Handler) findMilestone(ctx context.Context, repo index.Repo, key string) (index.Milestone, error) {
	ix := h.Forge.Index()
	if id, err := strconv.ParseUint(key, 10, 64); err == nil && id > 0 {
		if m, err := ix.MilestoneByID(ctx, repo.ID, id); err == nil {
			return m, nil
		}
	}
	all, err := ix.Milestones(ctx, repo.ID, index.MilestoneFilter{})
	if err != nil {
		return index.Milestone{}, err
	}
	for _, m := range all {
		if strings.EqualFold(strings.TrimSpace(m.Title), strings.TrimSpace(key)) {
			return m, nil
		}
	}
	return index.Milestone{}, usererr.Missingf("there is no milestone %s in %s", key, repo.Name)
}

// getMilestone reads one milestone by id or title.
func (h *Handler) getMilestone(w http.ResponseWriter, r *http.Request) error {
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	m, err := h.findMilestone(r.Context(), repo, r.PathValue("id"))
	if err != nil {
		return err
	}
	return api.Reply(w, convert.Milestone(m))
}

// dueOf is a due date in Unix seconds: 0 for none.
func dueOf(t *time.Time) (uint64, error) {
	if t == nil || t.IsZero() {
		return 0, nil
	}
	if t.Unix() <= 0 || t.Year() > 9999 {
		return 0, usererr.BadFieldf("due_on", "due_on must be a date between 1970 and 9999")
	}
	return uint64(t.Unix()), nil
}

func milestoneState(s string) (string, error) {
	switch strings.ToLower(s) {
	case "", chainforge.StateOpen:
		return chainforge.StateOpen, nil
	case chainforge.StateClosed:
		return chainforge.StateClosed, nil
	}
	return "", usererr.InvalidField("state", "invalid_state", "state must be open or closed")
}

// createMilestone creates a milestone (Gitea's CreateMilestoneOption).
func (h *Handler) createMilestone(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Title       string     `json:"title"`
		Description string     `json:"description"`
		State       string     `json:"state"`
		Due         *time.Time `json:"due_on"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	if err := api.CheckTitle(in.Title); err != nil {
		return err
	}
	if len(in.Description) > chainforge.MaxMilestoneDesc {
		return usererr.BadFieldf("description", "the description is %d bytes; the most is %d", len(in.Description), chainforge.MaxMilestoneDesc)
	}
	due, err := dueOf(in.Due)
	if err != nil {
		return err
	}
	state, err := milestoneState(in.State)
	if err != nil {
		return err
	}
	res, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.MilestoneCreate{
		Repo: repo.ID, Title: in.Title, Description: in.Description, Due: due, State: state,
	})
	if err != nil {
		return err
	}
	m, err := h.Forge.Index().MilestoneByID(r.Context(), repo.ID, res.Change.Milestone.ID)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, convert.Milestone(m))
	return nil
}

// editMilestone changes a milestone (Gitea's EditMilestoneOption): an
// empty title and an absent due date leave them as they are.
func (h *Handler) editMilestone(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Title       string     `json:"title"`
		Description *string    `json:"description"`
		State       *string    `json:"state"`
		Due         *time.Time `json:"due_on"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	m, err := h.findMilestone(r.Context(), repo, r.PathValue("id"))
	if err != nil {
		return err
	}
	edit := chainforge.MilestoneEdit{Repo: repo.ID, Milestone: m.ID, Description: in.Description}
	if in.Title != "" {
		if err := api.CheckTitle(in.Title); err != nil {
			return err
		}
		edit.Title = &in.Title
	}
	if in.Description != nil && len(*in.Description) > chainforge.MaxMilestoneDesc {
		return usererr.BadFieldf("description", "the description is %d bytes; the most is %d", len(*in.Description), chainforge.MaxMilestoneDesc)
	}
	if in.State != nil {
		state, err := milestoneState(*in.State)
		if err != nil {
			return err
		}
		edit.State = &state
	}
	if in.Due != nil {
		due, err := dueOf(in.Due)
		if err != nil {
			return err
		}
		edit.Due = &due
	}
	if _, err := h.Forge.Do(r.Context(), id.User.Address, edit); err != nil {
		return err
	}
	if m, err = h.Forge.Index().MilestoneByID(r.Context(), repo.ID, m.ID); err != nil {
		return err
	}
	return api.Reply(w, convert.Milestone(m))
}

// deleteMilestone deletes a milestone; its issues stay, filed under none.
func (h *Handler) deleteMilestone(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	m, err := h.findMilestone(r.Context(), repo, r.PathValue("id"))
	if err != nil {
		return err
	}
	if _, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.MilestoneDelete{Repo: repo.ID, Milestone: m.ID}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// milestoneFilter reads ?milestones= of an issue list (comma-separated
// titles or ids); ok is false when none names a milestone of the
// repository, so nothing can match.
func (h *Handler) milestoneFilter(ctx context.Context, repo index.Repo, raw string) ([]uint64, bool, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, true, nil
	}
	var ids []uint64
	for _, key := range strings.Split(raw, ",") {
		if key = strings.TrimSpace(key); key == "" {
			continue
		}
		m, err := h.findMilestone(ctx, repo, key)
		if err != nil {
			if _, ok := usererr.As(err); ok {
				continue
			}
			return nil, false, err
		}
		ids = append(ids, m.ID)
	}
	return ids, len(ids) > 0, nil
}

// issueMilestone checks the milestone id an issue create or edit names:
// a milestone of repo, or 0 for none.
func (h *Handler) issueMilestone(ctx context.Context, repo index.Repo, id int64) (uint64, error) {
	if id == 0 {
		return 0, nil
	}
	if id < 0 || id == math.MaxInt64 {
		return 0, usererr.BadFieldf("milestone", "there is no milestone %d in %s", id, repo.Name)
	}
	if _, err := h.Forge.Index().MilestoneByID(ctx, repo.ID, uint64(id)); err != nil {
		return 0, usererr.BadFieldf("milestone", "there is no milestone %d in %s", id, repo.Name)
	}
	return uint64(id), nil
}

// milestoneChange is the milestone an edit files is under: nil when the
// edit names none or the one it has.
func (h *Handler) milestoneChange(ctx context.Context, repo index.Repo, is index.Issue, id *int64) (*uint64, error) {
	if id == nil {
		return nil, nil
	}
	m, err := h.issueMilestone(ctx, repo, *id)
	if err != nil || m == is.MilestoneID {
		return nil, err
	}
	return &m, nil
}
