package forge

import (
	"slices"
	"strings"

	"github.com/dforge/dforge/internal/chain/tx"
)

// Repository names follow Gitea's rules (models/repo IsUsableRepoName):
// letters, digits, '-', '_' and '.', no "..", not ".", ".." or "-", not
// ending in .git, .wiki, .rss or .atom. dForge refuses a few more, named in
// issue 11: see reservedRepoNames and windowsDevices.

// reservedRepoNames are refused in any case. Gitea's own are ".", ".." and
// "-"; "head" and "api" are dForge's: HEAD is git's name for the checked-out
// commit (and a branch name git refuses), and /api is where every node
// serves its API, so a repository of either name reads as something else
// in commands and links that mention it.
var reservedRepoNames = []string{".", "..", "-", "head", "api"}

// reservedRepoSuffixes are Gitea's reserved patterns (*.git, *.wiki, ...).
var reservedRepoSuffixes = []string{".git", ".wiki", ".rss", ".atom"}

// windowsDevices are the names Windows keeps for devices, with or without
// an extension ("con", "con.txt"): a clone of such a repository cannot be
// checked out into its default directory on Windows.
var windowsDevices = []string{
	"con", "prn", "aux", "nul",
	"com0", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
	"lpt0", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
}

// ValidateRepoName checks a repository name: 1 to MaxRepoName letters,
// digits, '-', '_' and '.', no "..", not starting with '-' (git and shells
// would read it as an option), not a reserved name, a Windows device name
// or a reserved suffix. Names starting with '.' (".profile", ".github")
// are fine, as on Gitea.
func ValidateRepoName(name string) error {
	if name == "" || len(name) > MaxRepoName {
		return tx.NewError(tx.CodeInvalidName, "a repository name has 1 to %d characters", MaxRepoName)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return tx.NewError(tx.CodeInvalidName, "a repository name may contain only letters, digits, '-', '_' and '.'")
		}
	}
	lower := strings.ToLower(name)
	if slices.Contains(reservedRepoNames, lower) {
		return tx.NewError(tx.CodeInvalidName, "%q is reserved and cannot name a repository", name)
	}
	if strings.Contains(name, "..") {
		return tx.NewError(tx.CodeInvalidName, "a repository name may not contain \"..\"")
	}
	if strings.HasPrefix(name, "-") {
		return tx.NewError(tx.CodeInvalidName, "a repository name may not start with '-'")
	}
	if stem, _, _ := strings.Cut(lower, "."); slices.Contains(windowsDevices, stem) {
		return tx.NewError(tx.CodeInvalidName, "%q is a device name on Windows and cannot name a repository", name)
	}
	for _, suffix := range reservedRepoSuffixes {
		if strings.HasSuffix(lower, suffix) {
			return tx.NewError(tx.CodeInvalidName, "a repository name may not end in %q", suffix)
		}
	}
	return nil
}
