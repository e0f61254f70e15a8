package issue

import (
	"errors"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// Merging a pull request (Gitea's MergePullRequestOption: merge, squash,
// rebase, rebase-merge or fast-forward-only, and delete_branch_after_merge)
// through forge.Pulls, and whether it is merged.

// mergeStyles maps Gitea's Do to the forge's merge styles.
var mergeStyles = map[string]string{
	"merge": gitstore.StyleMerge, "squash": gitstore.StyleSquash, "rebase": gitstore.StyleRebase,
	"rebase-merge": gitstore.StyleRebaseMerge, "fast-forward-only": gitstore.StyleFastForward,
}

func (h *Handler) mergePull(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Do                     string `json:"Do"`
		MergeTitleField        string `json:"MergeTitleField"`
		MergeMessageField      string `json:"MergeMessageField"`
		HeadCommitID           string `json:"head_commit_id"`
		DeleteBranchAfterMerge bool   `json:"delete_branch_after_merge"`
		ForceMerge             bool   `json:"force_merge"`
		MergeWhenChecksSucceed bool   `json:"merge_when_checks_succeed"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	repo, perm, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	style, ok := mergeStyles[strings.ToLower(in.Do)]
	if in.Do == "" {
		style, ok = gitstore.StyleMerge, true
	}
	if !ok {
		return usererr.BadFieldf("Do", "Do must be merge, squash, rebase, rebase-merge or fast-forward-only")
	}
	if err := api.CheckBody("MergeMessageField", in.MergeMessageField); err != nil {
		return err
	}
	merger := api.UsernameOf(id.User)
	merged, err := h.Pulls.Merge(r.Context(), id.User.Address, repo, pr.Number, forge.MergeRequest{
		Style: style, Title: in.MergeTitleField, Message: in.MergeMessageField, HeadSHA: in.HeadCommitID,
		DeleteBranch: in.DeleteBranchAfterMerge,
		Author:       gitstore.Signature{Name: pr.Author.Username, Email: api.NoreplyEmail(r, pr.Author.Username)},
		Committer:    gitstore.Signature{Name: merger, Email: api.NoreplyEmail(r, merger)},
	})
	var ce *forge.ConflictError
	if errors.As(err, &ce) {
		api.WriteJSON(w, http.StatusConflict, api.MergeConflictJSON{Message: ce.Error(), Code: "merge_conflict", Files: ce.Files})
		return nil
	}
	if ue, ok := usererr.As(err); ok && ue.Code == "protected_branch" {
		// Gitea answers a merge its branch protection refuses with 405.
		api.WriteJSON(w, http.StatusMethodNotAllowed, map[string]string{"message": ue.Message, "code": ue.Code})
		return nil
	}
	if err != nil {
		return err
	}
	return api.Reply(w, h.Pull(r, repo, perm, merged, true))
}

func (h *Handler) isMerged(w http.ResponseWriter, r *http.Request) error {
	_, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	if !pr.Merged {
		return usererr.Newf(usererr.NotFound, "not_merged", "pull request #%d is not merged", pr.Number)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
