package forge

import (
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits on what an action may carry. Bodies are Markdown; the envelope's
// own limit (tx.MaxForgeTxBytes) bounds a whole action.
const (
	MaxRepoName       = 100
	MaxDescription    = 2048 // Gitea's repository description limit
	MaxWebsite        = 255  // Gitea's repository website limit
	MaxTitle          = 255  // characters
	MaxBody           = 65536
	MaxBranch         = 255
	MaxRef            = 255
	MaxProtected      = 32
	MaxLabelName      = 50
	MaxLabelDesc      = 255
	MaxIssueLabels    = 50
	MaxAssignees      = 10
	MaxReviewComments = 100
	MaxPath           = 4096
)

// ValidateBranch checks a branch name by git's ref rules (check-ref-format),
// as far as a name alone can be checked.
func ValidateBranch(field, name string) error {
	if name == "" || len(name) > MaxBranch {
		return invalid(field, "must be a branch name of 1 to %d bytes", MaxBranch)
	}
	if name == "HEAD" {
		return invalid(field, "cannot be HEAD: git keeps that name for the checked-out commit and refuses it as a branch")
	}
	if !utf8.ValidString(name) || strings.ContainsAny(name, " ~^:?*[\\\x7f") || strings.Contains(name, "..") ||
		strings.Contains(name, "@{") || strings.Contains(name, "//") || name == "@" ||
		strings.HasPrefix(name, "-") || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") ||
		strings.HasSuffix(name, ".") || strings.HasSuffix(name, ".lock") || strings.Contains(name, "/.") || strings.HasPrefix(name, ".") {
		return invalid(field, "%q is not a valid git branch name", name)
	}
	for _, r := range name {
		if r < 0x20 {
			return invalid(field, "must not contain control characters")
		}
	}
	return nil
}

// validateRef checks a full ref name ("refs/heads/main", "refs/tags/v1").
func validateRef(ref string) error {
	if len(ref) > MaxRef || !strings.HasPrefix(ref, "refs/") {
		return invalid("ref", "must be a full ref name of at most %d bytes, such as refs/heads/main", MaxRef)
	}
	return ValidateRefName("ref", strings.TrimPrefix(ref, "refs/"))
}

// ValidateRefName checks the part of a ref after "refs/" ("heads/main",
// "tags/v1") by git's rules, and refuses refs/heads/HEAD: a branch that
// git refuses to create by name.
func ValidateRefName(field, name string) error {
	if name == "heads/HEAD" {
		return invalid(field, "cannot be refs/heads/HEAD: git keeps HEAD for the checked-out commit and refuses it as a branch")
	}
	return ValidateBranch(field, name)
}

// ZeroSHA is git's "no object" id.
const ZeroSHA = "0000000000000000000000000000000000000000"

// validateSHA checks a commit id: 40 (SHA-1) or 64 (SHA-256) lower-case
// hex digits.
func validateSHA(field, sha string) error {
	if len(sha) != 40 && len(sha) != 64 || strings.Trim(sha, "0123456789abcdef") != "" {
		return invalid(field, "must be a commit id: 40 or 64 lower-case hex digits")
	}
	return nil
}

func isZeroSHA(sha string) bool { return strings.Trim(sha, "0") == "" }

// validateTitle: 1 to MaxTitle characters of valid UTF-8, not only spaces.
func validateTitle(title string) error {
	if !utf8.ValidString(title) || strings.TrimSpace(title) == "" || utf8.RuneCountInString(title) > MaxTitle {
		return invalid("title", "must be 1 to %d characters", MaxTitle)
	}
	return nil
}

// validateWebsite holds a website to an absolute http or https URL with a
// host and no spaces, of at most MaxWebsite bytes; "" clears it. url.Parse
// is pure, so every node decides alike.
// ValidWebsite says whether s may be a record's website: "" or an
// absolute http(s) address with a host, of at most MaxWebsite bytes. The
// API checks it before it relays, whatever rules the chain runs.
func ValidWebsite(s string) bool { return validateWebsite("website", s) == nil }

func validateWebsite(field, s string) error {
	if s == "" {
		return nil
	}
	if len(s) > MaxWebsite {
		return invalid(field, "is %d bytes; the most is %d", len(s), MaxWebsite)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(s, " \t\n\r") {
		return invalid(field, "must be an http:// or https:// address")
	}
	return nil
}

// validateText bounds a body or description.
func validateText(field, s string, most int) error {
	if !utf8.ValidString(s) {
		return invalid(field, "must be valid UTF-8")
	}
	if len(s) > most {
		return invalid(field, "is %d bytes; the most is %d", len(s), most)
	}
	return nil
}

func validateColor(c string) error {
	if len(c) != 7 || c[0] != '#' || strings.Trim(strings.ToLower(c[1:]), "0123456789abcdef") != "" {
		return invalid("color", "must be #rrggbb")
	}
	return nil
}

// uniqueStrings reports the first duplicate in s, if any.
func firstDuplicate[T comparable](s []T) (T, bool) {
	for i := range s {
		if slices.Contains(s[:i], s[i]) {
			return s[i], true
		}
	}
	var zero T
	return zero, false
}
