package issue

import (
	"context"
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Labels of a repository, and of an issue or pull request (Gitea's paths):
// a maintainer manages the repository's labels; a writer sets an issue's,
// which is an issue.edit of its label list.

func (h *Handler) listLabels(w http.ResponseWriter, r *http.Request) error {
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	p, err := commentsPage(r)
	if err != nil {
		return err
	}
	all, err := h.Forge.Index().Labels(r.Context(), repo.ID)
	if err != nil {
		return err
	}
	return h.RespondList(w, r, p, int64(len(all)), h.LinksFor(r, repo).Labels(api.PageSlice(all, p)), nil)
}

func (h *Handler) labelOf(r *http.Request, repo index.Repo) (index.Label, error) {
	all, err := h.Forge.Index().Labels(r.Context(), repo.ID)
	if err != nil {
		return index.Label{}, err
	}
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	for _, l := range all {
		if err == nil && l.ID == id {
			return l, nil
		}
	}
	return index.Label{}, usererr.Missingf("there is no label %s in %s", r.PathValue("id"), repo.Name)
}

func (h *Handler) getLabel(w http.ResponseWriter, r *http.Request) error {
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	l, err := h.labelOf(r, repo)
	if err != nil {
		return err
	}
	return api.Reply(w, h.LinksFor(r, repo).Label(l))
}

func (h *Handler) createLabel(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Name        string `json:"name"`
		Color       string `json:"color"`
		Description string `json:"description"`
		Exclusive   bool   `json:"exclusive"`
	}
	if err := api.Decode(w, r, 16<<10, &in); err != nil {
		return err
	}
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	res, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.LabelCreate{
		Repo: repo.ID, Name: in.Name, Color: hashColor(in.Color), Description: in.Description, Exclusive: in.Exclusive,
	})
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, h.LinksFor(r, repo).Label(labelOfChange(res.Change.Label, res.Change.Signer, res.Change.Delegation)))
	return nil
}

// hashColor is a colour as the chain takes it: Gitea's clients send
// "ee0701" or "#ee0701".
func hashColor(c string) string {
	c = strings.TrimSpace(c)
	if c != "" && !strings.HasPrefix(c, "#") {
		c = "#" + c
	}
	return c
}

// labelOfChange is lb as a read shows it, signed by signer under delegation.
func labelOfChange(lb *chainforge.Label, signer, delegation string) index.Label {
	return index.Label{ID: lb.ID, Name: lb.Name, Color: lb.Color, Description: lb.Description, Exclusive: lb.Exclusive,
		Signer: signer, Delegation: delegation}
}

// editLabel is Gitea's PATCH /repos/{owner}/{repo}/labels/{id}: the
// fields sent change (label.edit), the others stay.
func (h *Handler) editLabel(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Name        *string `json:"name"`
		Color       *string `json:"color"`
		Description *string `json:"description"`
		Exclusive   *bool   `json:"exclusive"`
		IsArchived  *bool   `json:"is_archived"`
	}
	if err := api.Decode(w, r, 16<<10, &in); err != nil {
		return err
	}
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	l, err := h.labelOf(r, repo)
	if err != nil {
		return err
	}
	if in.IsArchived != nil && *in.IsArchived {
		return usererr.InvalidField("is_archived", "unsupported", "archived labels are not supported here; delete the label instead")
	}
	edit := chainforge.LabelEdit{Repo: repo.ID, Label: l.ID, Name: in.Name, Description: in.Description, Exclusive: in.Exclusive}
	if in.Color != nil {
		c := hashColor(*in.Color)
		edit.Color = &c
	}
	res, err := h.Forge.Do(r.Context(), id.User.Address, edit)
	if err != nil {
		return err
	}
	// The label keeps the signer of its creation, as a read shows it.
	return api.Reply(w, h.LinksFor(r, repo).Label(labelOfChange(res.Change.Label, l.Signer, l.Delegation)))
}

func (h *Handler) deleteLabel(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	l, err := h.labelOf(r, repo)
	if err != nil {
		return err
	}
	if _, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.LabelDelete{Repo: repo.ID, Label: l.ID}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// --- an issue's labels ---

func (h *Handler) listIssueLabels(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	return api.Reply(w, h.LinksFor(r, repo).Labels(is.Labels))
}

// issueLabelsOption is Gitea's IssueLabelsOption: label ids, or (Gitea
// 1.20 and later) names.
type issueLabelsOption struct {
	Labels []any `json:"labels"`
}

func (h *Handler) labelIDs(ctx context.Context, repo index.Repo, in []any) ([]uint64, error) {
	all, err := h.Forge.Index().Labels(ctx, repo.ID)
	if err != nil {
		return nil, err
	}
	ids := []uint64{}
	for _, v := range in {
		key := fmt.Sprint(v)
		if f, ok := v.(float64); ok {
			key = strconv.FormatFloat(f, 'f', -1, 64)
		}
		id, found := findLabel(all, key)
		if !found {
			return nil, usererr.BadFieldf("labels", "there is no label %s in %s", key, repo.Name)
		}
		if !containsID(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

func containsID(list []uint64, id uint64) bool {
	for _, x := range list {
		if x == id {
			return true
		}
	}
	return false
}

// setIssueLabels sets the labels of the request's issue to what change
// makes of the current ones, and answers with them.
func (h *Handler) setIssueLabels(w http.ResponseWriter, r *http.Request, actor common.Address, change func(current []uint64, in []uint64) []uint64, body bool) error {
	var in issueLabelsOption
	if body {
		if err := api.Decode(w, r, 64<<10, &in); err != nil {
			return err
		}
	}
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	ids, err := h.labelIDs(r.Context(), repo, in.Labels)
	if err != nil {
		return err
	}
	current := make([]uint64, len(is.Labels))
	for i, l := range is.Labels {
		current[i] = l.ID
	}
	next := change(current, ids)
	if _, err := h.Forge.Do(r.Context(), actor, chainforge.IssueEdit{Repo: repo.ID, Number: is.Number, Labels: &next}); err != nil {
		return err
	}
	is, err = h.Forge.Index().Issue(r.Context(), repo.ID, is.Number)
	if err != nil {
		return err
	}
	return api.Reply(w, h.LinksFor(r, repo).Labels(is.Labels))
}

func (h *Handler) addIssueLabels(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return h.setIssueLabels(w, r, id.User.Address, func(cur, in []uint64) []uint64 {
		for _, x := range in {
			if !containsID(cur, x) {
				cur = append(cur, x)
			}
		}
		return cur
	}, true)
}

func (h *Handler) replaceIssueLabels(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return h.setIssueLabels(w, r, id.User.Address, func(_, in []uint64) []uint64 { return in }, true)
}

func (h *Handler) clearIssueLabels(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec := &discard{header: http.Header{}}
	if err := h.setIssueLabels(rec, r, id.User.Address, func(_, _ []uint64) []uint64 { return []uint64{} }, false); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (h *Handler) removeIssueLabel(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	gone, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	next := []uint64{}
	found := false
	for _, l := range is.Labels {
		if err == nil && l.ID == gone {
			found = true
			continue
		}
		next = append(next, l.ID)
	}
	if !found {
		return usererr.Missingf("#%d has no label %s", is.Number, r.PathValue("id"))
	}
	if _, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.IssueEdit{Repo: repo.ID, Number: is.Number, Labels: &next}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// discard is a ResponseWriter that keeps nothing, for a handler whose
// answer is replaced.
type discard struct{ header http.Header }

func (d *discard) Header() http.Header         { return d.header }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(int)             {}
