package tx

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// TargetKind is what a tip thanks.
type TargetKind string

const (
	TargetUser  TargetKind = "user"  // user:alice
	TargetRepo  TargetKind = "repo"  // repo:alice/x
	TargetIssue TargetKind = "issue" // issue:alice/x#3
	TargetPull  TargetKind = "pr"    // pr:alice/x#4
)

// MaxTargetLen bounds a tip's target; it is shown on pages and stored in
// state, so it must stay small.
const MaxTargetLen = 256

// maxNameLen bounds one user or repository name in a target.
const maxNameLen = 100

// Target is a parsed tip target. Owner is the user for TargetUser; Repo
// and Number are set only for the kinds that have them.
type Target struct {
	Kind   TargetKind
	Owner  string
	Repo   string
	Number uint64
}

// String is the target in its signed form; ParseTarget(t.String()) == t.
func (t Target) String() string {
	switch t.Kind {
	case TargetUser:
		return "user:" + t.Owner
	case TargetRepo:
		return "repo:" + t.Owner + "/" + t.Repo
	}
	return fmt.Sprintf("%s:%s/%s#%d", t.Kind, t.Owner, t.Repo, t.Number)
}

// ParseTarget reads "user:NAME", "repo:OWNER/NAME", "issue:OWNER/NAME#N" or
// "pr:OWNER/NAME#N". Only the canonical spelling is accepted (no leading
// zeros, no spaces), so one object has one target string and tips on it
// can be found by that string.
func ParseTarget(s string) (Target, error) {
	if len(s) > MaxTargetLen {
		return Target{}, fmt.Errorf("longer than %d bytes", MaxTargetLen)
	}
	kind, rest, ok := strings.Cut(s, ":")
	if !ok {
		return Target{}, errors.New(`want "user:NAME", "repo:OWNER/NAME", "issue:OWNER/NAME#N" or "pr:OWNER/NAME#N"`)
	}
	switch TargetKind(kind) {
	case TargetUser:
		return Target{Kind: TargetUser, Owner: rest}, checkName(rest)
	case TargetRepo:
		return parseRepoTarget(rest)
	case TargetIssue, TargetPull:
		return parseNumberedTarget(TargetKind(kind), rest)
	}
	return Target{}, fmt.Errorf("unknown target kind %q: want user, repo, issue or pr", kind)
}

func parseRepoTarget(s string) (Target, error) {
	owner, repo, ok := strings.Cut(s, "/")
	if !ok {
		//lint:ignore ST1005 the colon is the "repo:" prefix's own
		return Target{}, errors.New("want OWNER/NAME after repo:")
	}
	if err := checkName(owner); err != nil {
		return Target{}, err
	}
	return Target{Kind: TargetRepo, Owner: owner, Repo: repo}, checkName(repo)
}

func parseNumberedTarget(kind TargetKind, s string) (Target, error) {
	repoPart, num, ok := strings.Cut(s, "#")
	if !ok {
		//lint:ignore ST1005 the colon is the "issue:" or "pr:" prefix's own
		return Target{}, fmt.Errorf("want OWNER/NAME#N after %s:", kind)
	}
	t, err := parseRepoTarget(repoPart)
	if err != nil {
		return Target{}, err
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || n == 0 || num != strconv.FormatUint(n, 10) {
		return Target{}, fmt.Errorf("number %q must be a positive whole number without leading zeros", num)
	}
	t.Kind, t.Number = kind, n
	return t, nil
}

// checkName allows the characters forge user and repository names use.
func checkName(name string) error {
	if name == "" || len(name) > maxNameLen {
		return fmt.Errorf("name %q must be 1 to %d characters", name, maxNameLen)
	}
	for _, r := range name {
		if !isNameRune(r) {
			return fmt.Errorf("name %q may contain only letters, digits, '.', '_' and '-'", name)
		}
	}
	return nil
}

func isNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
}
