package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Branch protection rules, Gitea's BranchProtection: on chain
// (branch.protect, branch.unprotect; the owner's). A rule names a branch
// or, as Gitea's rule_name, a glob pattern ("release/*"). dForge enforces pushing (disabled, or kept to a whitelist of
// users), required status checks and required approvals; the options it
// does not enforce are refused when set, never silently ignored.

// branchProtectionJSON is Gitea's BranchProtection.
type branchProtectionJSON struct {
	BranchName                    string   `json:"branch_name"`
	RuleName                      string   `json:"rule_name"`
	EnablePush                    bool     `json:"enable_push"`
	EnablePushWhitelist           bool     `json:"enable_push_whitelist"`
	PushWhitelistUsernames        []string `json:"push_whitelist_usernames"`
	PushWhitelistTeams            []string `json:"push_whitelist_teams"`
	PushWhitelistDeployKeys       bool     `json:"push_whitelist_deploy_keys"`
	EnableMergeWhitelist          bool     `json:"enable_merge_whitelist"`
	MergeWhitelistUsernames       []string `json:"merge_whitelist_usernames"`
	MergeWhitelistTeams           []string `json:"merge_whitelist_teams"`
	EnableStatusCheck             bool     `json:"enable_status_check"`
	StatusCheckContexts           []string `json:"status_check_contexts"`
	RequiredApprovals             int64    `json:"required_approvals"`
	EnableApprovalsWhitelist      bool     `json:"enable_approvals_whitelist"`
	ApprovalsWhitelistUsernames   []string `json:"approvals_whitelist_username"`
	ApprovalsWhitelistTeams       []string `json:"approvals_whitelist_teams"`
	BlockOnRejectedReviews        bool     `json:"block_on_rejected_reviews"`
	BlockOnOfficialReviewRequests bool     `json:"block_on_official_review_requests"`
	BlockOnOutdatedBranch         bool     `json:"block_on_outdated_branch"`
	DismissStaleApprovals         bool     `json:"dismiss_stale_approvals"`
	IgnoreStaleApprovals          bool     `json:"ignore_stale_approvals"` // false: an approval of an older head counts, unless dismissed
	RequireSignedCommits          bool     `json:"require_signed_commits"`
	ProtectedFilePatterns         string   `json:"protected_file_patterns"`
	UnprotectedFilePatterns       string   `json:"unprotected_file_patterns"`
	Created                       string   `json:"created_at"`
	Updated                       string   `json:"updated_at"`
}

func toProtection(r *http.Request, p index.Protection) branchProtectionJSON {
	names := []string{}
	for _, u := range p.PushWhitelist {
		names = append(names, api.ToForgeUser(r, u).Login)
	}
	return branchProtectionJSON{
		BranchName: p.Branch, RuleName: p.Branch, EnablePush: p.EnablePush, EnablePushWhitelist: len(names) > 0,
		PushWhitelistUsernames: names, PushWhitelistTeams: []string{}, MergeWhitelistUsernames: []string{}, MergeWhitelistTeams: []string{},
		EnableStatusCheck: p.EnableStatusCheck, StatusCheckContexts: p.StatusCheckContexts, RequiredApprovals: p.RequiredApprovals,
		ApprovalsWhitelistUsernames: []string{}, ApprovalsWhitelistTeams: []string{}, Created: p.Created, Updated: p.Updated,
	}
}

// protectionOption is Gitea's Create- and EditBranchProtectionOption:
// pointers, so an edit changes only what it names.
type protectionOption struct {
	BranchName                    *string   `json:"branch_name"`
	RuleName                      *string   `json:"rule_name"`
	EnablePush                    *bool     `json:"enable_push"`
	EnablePushWhitelist           *bool     `json:"enable_push_whitelist"`
	PushWhitelistUsernames        *[]string `json:"push_whitelist_usernames"`
	PushWhitelistTeams            *[]string `json:"push_whitelist_teams"`
	PushWhitelistDeployKeys       *bool     `json:"push_whitelist_deploy_keys"`
	EnableMergeWhitelist          *bool     `json:"enable_merge_whitelist"`
	MergeWhitelistUsernames       *[]string `json:"merge_whitelist_usernames"`
	MergeWhitelistTeams           *[]string `json:"merge_whitelist_teams"`
	EnableStatusCheck             *bool     `json:"enable_status_check"`
	StatusCheckContexts           *[]string `json:"status_check_contexts"`
	RequiredApprovals             *int64    `json:"required_approvals"`
	EnableApprovalsWhitelist      *bool     `json:"enable_approvals_whitelist"`
	ApprovalsWhitelistUsernames   *[]string `json:"approvals_whitelist_username"`
	ApprovalsWhitelistTeams       *[]string `json:"approvals_whitelist_teams"`
	BlockOnRejectedReviews        *bool     `json:"block_on_rejected_reviews"`
	BlockOnOfficialReviewRequests *bool     `json:"block_on_official_review_requests"`
	BlockOnOutdatedBranch         *bool     `json:"block_on_outdated_branch"`
	DismissStaleApprovals         *bool     `json:"dismiss_stale_approvals"`
	RequireSignedCommits          *bool     `json:"require_signed_commits"`
	ProtectedFilePatterns         *string   `json:"protected_file_patterns"`
	UnprotectedFilePatterns       *string   `json:"unprotected_file_patterns"`
}

// unsupported names the first option set that dForge does not enforce.
func (o protectionOption) unsupported() string {
	flags := []struct {
		name string
		v    *bool
	}{
		{"push_whitelist_deploy_keys", o.PushWhitelistDeployKeys}, {"enable_merge_whitelist", o.EnableMergeWhitelist},
		{"enable_approvals_whitelist", o.EnableApprovalsWhitelist}, {"block_on_rejected_reviews", o.BlockOnRejectedReviews},
		{"block_on_official_review_requests", o.BlockOnOfficialReviewRequests}, {"block_on_outdated_branch", o.BlockOnOutdatedBranch},
		{"dismiss_stale_approvals", o.DismissStaleApprovals}, {"require_signed_commits", o.RequireSignedCommits},
	}
	for _, f := range flags {
		if f.v != nil && *f.v {
			return f.name
		}
	}
	lists := []struct {
		name string
		v    *[]string
	}{{"push_whitelist_teams", o.PushWhitelistTeams}, {"merge_whitelist_usernames", o.MergeWhitelistUsernames},
		{"merge_whitelist_teams", o.MergeWhitelistTeams}, {"approvals_whitelist_username", o.ApprovalsWhitelistUsernames},
		{"approvals_whitelist_teams", o.ApprovalsWhitelistTeams}}
	for _, l := range lists {
		if l.v != nil && len(*l.v) > 0 {
			return l.name
		}
	}
	if o.ProtectedFilePatterns != nil && *o.ProtectedFilePatterns != "" {
		return "protected_file_patterns"
	}
	if o.UnprotectedFilePatterns != nil && *o.UnprotectedFilePatterns != "" {
		return "unprotected_file_patterns"
	}
	return ""
}

func (a *Handler) listProtections(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	list, err := a.Forge.Index().Protections(r.Context(), rec.ID)
	out := make([]branchProtectionJSON, 0, len(list))
	for _, p := range list {
		out = append(out, toProtection(r, p))
	}
	return a.RespondList(w, r, index.Page{Number: 1, Limit: max(len(out), 1)}, int64(len(out)), out, err)
}

// protectionOf is the path's repository and its rule {name} (404 when none).
func (a *Handler) protectionOf(r *http.Request) (index.Repo, index.Protection, error) {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return index.Repo{}, index.Protection{}, err
	}
	p, ok, err := a.Forge.Index().Protection(r.Context(), rec.ID, r.PathValue("name"))
	if err != nil {
		return index.Repo{}, index.Protection{}, err
	}
	if !ok {
		return index.Repo{}, index.Protection{}, usererr.Missingf("branch %s has no protection rule", r.PathValue("name"))
	}
	return rec, p, nil
}

func (a *Handler) getProtection(w http.ResponseWriter, r *http.Request) error {
	_, p, err := a.protectionOf(r)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, toProtection(r, p))
	return nil
}

func (a *Handler) createProtection(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	var in protectionOption
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	name, field := "", "rule_name"
	if in.RuleName != nil && *in.RuleName != "" {
		name = *in.RuleName
	} else if in.BranchName != nil {
		name, field = *in.BranchName, "branch_name"
	}
	if err := api.CheckChainLines(api.TextField{Name: field, Value: name}); err != nil {
		return err
	}
	if name == "" {
		return usererr.BadFieldf("rule_name", "rule_name or branch_name must name a branch")
	}
	if _, ok, err := a.Forge.Index().Protection(r.Context(), rec.ID, name); err != nil {
		return err
	} else if ok {
		return usererr.Deniedf("branch protection already exists for %s", name)
	}
	p, err := a.applyProtection(r, id.User.Address, rec, chainforge.BranchProtect{Repo: rec.ID, Branch: name}, in)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, toProtection(r, p))
	return nil
}

func (a *Handler) editProtection(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, old, err := a.protectionOf(r)
	if err != nil {
		return err
	}
	var in protectionOption
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	cur := chainforge.BranchProtect{Repo: rec.ID, Branch: old.Branch, EnablePush: old.EnablePush, EnableStatusCheck: old.EnableStatusCheck,
		StatusCheckContexts: old.StatusCheckContexts, RequiredApprovals: uint64(old.RequiredApprovals)}
	for _, u := range old.PushWhitelist {
		cur.PushWhitelist = append(cur.PushWhitelist, common.HexToAddress(u.Address))
	}
	p, err := a.applyProtection(r, id.User.Address, rec, cur, in)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, toProtection(r, p))
	return nil
}

// applyProtection sets the rule cur as changed by in, and reads it back.
func (a *Handler) applyProtection(r *http.Request, actor common.Address, rec index.Repo, cur chainforge.BranchProtect, in protectionOption) (index.Protection, error) {
	if f := in.unsupported(); f != "" {
		return index.Protection{}, usererr.BadFieldf(f, "%s is not supported by dForge's branch protection", f)
	}
	if in.EnablePush != nil {
		cur.EnablePush = *in.EnablePush
	}
	if in.EnableStatusCheck != nil {
		cur.EnableStatusCheck = *in.EnableStatusCheck
	}
	if in.StatusCheckContexts != nil {
		cur.StatusCheckContexts = slices.Clone(*in.StatusCheckContexts)
	}
	if in.RequiredApprovals != nil {
		if *in.RequiredApprovals < 0 {
			return index.Protection{}, usererr.BadFieldf("required_approvals", "required_approvals cannot be negative")
		}
		cur.RequiredApprovals = uint64(*in.RequiredApprovals)
	}
	if in.PushWhitelistUsernames != nil {
		cur.PushWhitelist = nil
		for _, name := range *in.PushWhitelistUsernames {
			who, err := a.Hosting.Owner(r.Context(), name)
			if err != nil {
				return index.Protection{}, usererr.BadFieldf("push_whitelist_usernames", "there is no user %q", name)
			}
			cur.PushWhitelist = append(cur.PushWhitelist, who)
		}
	}
	if in.EnablePushWhitelist != nil && !*in.EnablePushWhitelist || !cur.EnablePush {
		cur.PushWhitelist = nil
	}
	if _, err := a.Forge.Do(r.Context(), actor, cur); err != nil {
		return index.Protection{}, err
	}
	p, ok, err := a.Forge.Index().Protection(r.Context(), rec.ID, cur.Branch)
	if err == nil && !ok {
		err = usererr.Missingf("branch %s has no protection rule", cur.Branch)
	}
	return p, err
}

func (a *Handler) deleteProtection(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, p, err := a.protectionOf(r)
	if err != nil {
		return err
	}
	if _, err := a.Forge.Do(r.Context(), id.User.Address, chainforge.BranchUnprotect{Repo: rec.ID, Branch: p.Branch}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
