package forge

import (
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
)

// Branch protection rules, Gitea's BranchProtection, one per branch name.
// A branch with a rule is protected as Repo.ProtectedBranches are (no
// deletion, no force-push) and more: pushes may be disabled or kept to a
// whitelist, and a merge into it may need required status checks to pass
// on the pull request's head and a number of approvals from people who may
// write. The rules are on chain because the chain decides pushes and
// merges; a rule names a branch exactly or by a glob pattern
// (protect_pattern.go).

// Limits of a rule.
const (
	MaxPushWhitelist     = 50
	MaxStatusContexts    = 50
	MaxRequiredApprovals = 100
)

// BranchProtect is the payload of branch.protect: it creates the rule of
// Branch or replaces it whole.
type BranchProtect struct {
	Repo                uint64           `json:"repo"`
	Branch              string           `json:"branch"`
	EnablePush          bool             `json:"enablePush"`
	PushWhitelist       []common.Address `json:"pushWhitelist"`
	EnableStatusCheck   bool             `json:"enableStatusCheck"`
	StatusCheckContexts []string         `json:"statusCheckContexts"`
	RequiredApprovals   uint64           `json:"requiredApprovals"`
}

// BranchUnprotect is the payload of branch.unprotect.
type BranchUnprotect struct {
	Repo   uint64 `json:"repo"`
	Branch string `json:"branch"`
}

// Protection is a branch's rule as recorded.
type Protection struct {
	Repo                uint64           `json:"repo"`
	Branch              string           `json:"branch"`
	EnablePush          bool             `json:"enablePush"`
	PushWhitelist       []common.Address `json:"pushWhitelist"`
	EnableStatusCheck   bool             `json:"enableStatusCheck"`
	StatusCheckContexts []string         `json:"statusCheckContexts"`
	RequiredApprovals   uint64           `json:"requiredApprovals"`
	CreatedHeight       uint64           `json:"createdHeight"`
	UpdatedHeight       uint64           `json:"updatedHeight"`
}

func protectKey(repo uint64, branch string) []byte {
	return key([]byte("protect"), u64(repo), []byte(branch))
}

func branchProtect(s *session, payload []byte) error {
	var p BranchProtect
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermOwner, "protecting a branch")
	if err != nil {
		return err
	}
	if err := checkProtect(p); err != nil {
		return err
	}
	old, err := s.protection(r.ID, p.Branch)
	if err != nil {
		return err
	}
	rule := &Protection{Repo: r.ID, Branch: p.Branch, EnablePush: p.EnablePush, PushWhitelist: p.PushWhitelist,
		EnableStatusCheck: p.EnableStatusCheck, StatusCheckContexts: p.StatusCheckContexts, RequiredApprovals: p.RequiredApprovals,
		CreatedHeight: s.env.Height, UpdatedHeight: s.env.Height}
	if rule.PushWhitelist == nil {
		rule.PushWhitelist = []common.Address{}
	}
	if rule.StatusCheckContexts == nil {
		rule.StatusCheckContexts = []string{}
	}
	if old != nil {
		rule.CreatedHeight = old.CreatedHeight
	} else if IsRulePattern(p.Branch) {
		if err := s.notePattern(r.ID, p.Branch, true); err != nil {
			return err
		}
	}
	if err := s.putJSON(protectKey(r.ID, p.Branch), rule); err != nil {
		return err
	}
	s.change.Protection = rule
	return nil
}

func checkProtect(p BranchProtect) error {
	if err := ValidateRuleName("branch", p.Branch); err != nil {
		return err
	}
	if len(p.PushWhitelist) > MaxPushWhitelist {
		return invalid("pushWhitelist", "may list at most %d users", MaxPushWhitelist)
	}
	if slices.Contains(p.PushWhitelist, common.Address{}) {
		return invalid("pushWhitelist", "holds the zero address")
	}
	if a, dup := firstDuplicate(p.PushWhitelist); dup {
		return invalid("pushWhitelist", "lists %s twice", a.Hex())
	}
	if len(p.StatusCheckContexts) > MaxStatusContexts {
		return invalid("statusCheckContexts", "may list at most %d contexts", MaxStatusContexts)
	}
	for _, c := range p.StatusCheckContexts {
		if strings.TrimSpace(c) == "" || len(c) > MaxStatusContext {
			return invalid("statusCheckContexts", "must hold contexts of 1 to %d bytes", MaxStatusContext)
		}
	}
	if c, dup := firstDuplicate(p.StatusCheckContexts); dup {
		return invalid("statusCheckContexts", "lists %q twice", c)
	}
	if p.RequiredApprovals > MaxRequiredApprovals {
		return invalid("requiredApprovals", "may be at most %d", MaxRequiredApprovals)
	}
	return nil
}

func branchUnprotect(s *session, payload []byte) error {
	var p BranchUnprotect
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermOwner, "unprotecting a branch")
	if err != nil {
		return err
	}
	if err := ValidateRuleName("branch", p.Branch); err != nil {
		return err
	}
	rule, err := s.protection(r.ID, p.Branch)
	if err != nil {
		return err
	}
	if rule == nil {
		return notFound("branch %s of %s has no protection rule", p.Branch, r.Name)
	}
	if err := s.kv.Set(protectKey(r.ID, p.Branch), none); err != nil {
		return err
	}
	if IsRulePattern(p.Branch) {
		if err := s.notePattern(r.ID, p.Branch, false); err != nil {
			return err
		}
	}
	s.change.DeletedProtection = rule
	return nil
}

// protection is branch's rule, or nil.
func (s *session) protection(repo uint64, branch string) (*Protection, error) {
	var rule Protection
	ok, err := s.getJSON(protectKey(repo, branch), &rule)
	if err != nil || !ok {
		return nil, err
	}
	return &rule, nil
}

// checkRuledPush holds one update of a push to its branch's rule, if it has
// one. merge is the pull request the push merges (0 for a plain push): a
// merge may move a branch nobody may push to, once the rule's merge
// requirements are met.
func (s *session) checkRuledPush(r *Repo, u RefChange, merge uint64) error {
	branch, ok := strings.CutPrefix(u.Ref, "refs/heads/")
	if !ok {
		return nil
	}
	rule, err := s.ruleFor(r.ID, branch)
	if err != nil || rule == nil {
		return err
	}
	switch {
	case isZeroSHA(u.New):
		return tx.NewError(tx.CodeProtectedBranch, "branch %s of %s is protected and cannot be deleted", branch, r.Name)
	case u.Forced && !isZeroSHA(u.Old):
		return tx.NewError(tx.CodeProtectedBranch, "branch %s of %s is protected: force-pushes are refused", branch, r.Name)
	}
	if merge != 0 {
		return s.checkMergePush(r, rule, branch, merge)
	}
	if !rule.EnablePush {
		return tx.NewError(tx.CodeProtectedBranch, "branch %s of %s is protected: pushing to it is disabled; open a pull request", branch, r.Name)
	}
	if len(rule.PushWhitelist) > 0 && !slices.Contains(rule.PushWhitelist, s.actor) {
		return tx.NewError(tx.CodeProtectedBranch, "branch %s of %s is protected: you are not on its push whitelist", branch, r.Name)
	}
	return nil
}

// checkMergePush checks the push that records pull request number's merge
// into branch, which rule protects.
func (s *session) checkMergePush(r *Repo, rule *Protection, branch string, number uint64) error {
	is, pr, err := s.pullRequest(r, number)
	if err != nil {
		return err
	}
	if pr.Merged || is.State == StateClosed {
		return conflict("pull request #%d is already %s", pr.Number, mergedOrClosed(pr))
	}
	if pr.BaseBranch != branch {
		return invalid("merge", "pull request #%d merges into %s, not %s", number, pr.BaseBranch, branch)
	}
	p, err := s.permission(r, s.actor)
	if err != nil {
		return err
	}
	if p < PermMaintain {
		return forbidden("merging needs maintain permission on %s; you have %s", r.Name, p)
	}
	return s.mergeRequirements(r, rule, pr)
}

// mergeRequirements checks what rule asks of a pull request before it
// merges: its required status checks successful on its head, and enough
// approvals from people who may write to the repository.
func (s *session) mergeRequirements(r *Repo, rule *Protection, pr *Pull) error {
	if rule.EnableStatusCheck {
		for _, c := range rule.StatusCheckContexts {
			st, err := s.latestStatus(r.ID, pr.HeadSHA, c)
			if err != nil {
				return err
			}
			if st == nil {
				return tx.NewError(tx.CodeProtectedBranch, "branch %s requires the status check %q, which has not reported on %s", rule.Branch, c, pr.HeadSHA)
			}
			if st.State != StatusSuccess {
				return tx.NewError(tx.CodeProtectedBranch, "branch %s requires the status check %q to succeed; it is %s on %s", rule.Branch, c, st.State, pr.HeadSHA)
			}
		}
	}
	if rule.RequiredApprovals == 0 {
		return nil
	}
	var approvals uint64
	for _, a := range pr.Approvers {
		p, err := s.permission(r, a)
		if err != nil {
			return err
		}
		if p >= PermWrite {
			approvals++
		}
	}
	if approvals < rule.RequiredApprovals {
		return tx.NewError(tx.CodeProtectedBranch, "branch %s requires %d approvals from people who may write; pull request #%d has %d",
			rule.Branch, rule.RequiredApprovals, pr.Number, approvals)
	}
	return nil
}

// checkMergeRule holds a pr.merge to the rule of its base branch.
func (s *session) checkMergeRule(r *Repo, pr *Pull) error {
	rule, err := s.ruleFor(r.ID, pr.BaseBranch)
	if err != nil || rule == nil {
		return err
	}
	return s.mergeRequirements(r, rule, pr)
}
