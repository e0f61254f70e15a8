package forge

import (
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// Branch protection rules may name a glob pattern ("release/*"), as
// Gitea's rule_name may: '*' and '?' match within one path segment, '['
// opens a class, with path.Match's semantics (pure, no I/O). A branch's
// rule is the rule naming it exactly, else the first-created pattern that
// matches it. Patterns are listed per repository in creation order under
// their own key so that lookups stay deterministic (no map, no prefix
// scan order); repositories without patterns never write that key, so
// exact rules keep the state they had.

// MaxPatternRules bounds the pattern rules of one repository.
const MaxPatternRules = 50

// IsRulePattern reports whether a rule name is a glob pattern.
func IsRulePattern(name string) bool { return strings.ContainsAny(name, "*?[") }

// RuleMatches reports whether the rule named rule applies to branch.
func RuleMatches(rule, branch string) bool {
	if !IsRulePattern(rule) {
		return rule == branch
	}
	ok, err := path.Match(rule, branch)
	return err == nil && ok
}

// ValidateRuleName checks a rule name: a branch name, or a glob pattern
// that would be a branch name with its glob characters as letters.
func ValidateRuleName(field, name string) error {
	if !IsRulePattern(name) {
		return ValidateBranch(field, name)
	}
	if len(name) > MaxBranch || !utf8.ValidString(name) {
		return invalid(field, "must be a pattern of 1 to %d bytes", MaxBranch)
	}
	if _, err := path.Match(name, ""); err != nil {
		return invalid(field, "%q is not a valid branch pattern", name)
	}
	// Each glob character stands for a letter: the rest must be a branch name.
	letters := strings.NewReplacer("*", "x", "?", "x", "[", "x", "]", "x", "!", "x", "^", "x").Replace(name)
	if err := ValidateBranch(field, letters); err != nil {
		return invalid(field, "%q is not a valid branch pattern", name)
	}
	return nil
}

func protectPatternsKey(repo uint64) []byte {
	return key([]byte("protectpat"), u64(repo))
}

// rulePatterns lists repo's pattern rule names in creation order.
func (s *session) rulePatterns(repo uint64) ([]string, error) {
	var names []string
	if _, err := s.getJSON(protectPatternsKey(repo), &names); err != nil {
		return nil, err
	}
	return names, nil
}

// notePattern adds (add) or removes a pattern rule name from repo's list.
func (s *session) notePattern(repo uint64, name string, add bool) error {
	names, err := s.rulePatterns(repo)
	if err != nil {
		return err
	}
	i := slices.Index(names, name)
	switch {
	case add && i >= 0, !add && i < 0:
		return nil
	case add:
		if len(names) >= MaxPatternRules {
			return invalid("branch", "a repository may have at most %d pattern rules", MaxPatternRules)
		}
		names = append(names, name)
	default:
		names = slices.Delete(names, i, i+1)
	}
	return s.putJSON(protectPatternsKey(repo), names)
}

// ruleFor is the rule that applies to branch: its exact rule, else the
// first-created pattern matching it; nil when none does.
func (s *session) ruleFor(repo uint64, branch string) (*Protection, error) {
	rule, err := s.protection(repo, branch)
	if err != nil || rule != nil {
		return rule, err
	}
	names, err := s.rulePatterns(repo)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if RuleMatches(n, branch) {
			return s.protection(repo, n)
		}
	}
	return nil, nil
}
