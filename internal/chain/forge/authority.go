package forge

import (
	"slices"
	"strings"

	"github.com/dforge/dforge/internal/chain/delegation"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Authority: which delegation scope each action needs, and which actions
// are never delegated. The app checks both before it applies an action
// (own-keys rules); the Owners team's membership, sensitive too, is
// checked where it changes (setTeamMember), since only the state knows
// which team is an organization's Owners.

// sensitive actions need the actor's own signature: they give away or
// destroy what the actor owns, or let another key in.
var sensitive = []string{"repo.delete", "repo.transfer", "org.delete", "key.add"}

// Sensitive reports whether action is never delegated.
func Sensitive(action string) bool { return slices.Contains(sensitive, action) }

// scopeByPrefix maps an action's first word to its scope, as Gitea's token
// categories cover its API routes; exceptions are in scopeByAction.
var scopeByPrefix = map[string]string{
	"repo": delegation.ScopeRepository, "pr": delegation.ScopeRepository, "release": delegation.ScopeRepository,
	"branch": delegation.ScopeRepository, "status": delegation.ScopeRepository,
	"issue": delegation.ScopeIssue, "comment": delegation.ScopeIssue, "reaction": delegation.ScopeIssue,
	"label": delegation.ScopeIssue, "milestone": delegation.ScopeIssue,
	"org": delegation.ScopeOrganization, "team": delegation.ScopeOrganization,
	"user": delegation.ScopeUser, "key": delegation.ScopeUser,
	"forum": delegation.ScopeMisc, "event": delegation.ScopeMisc, "listing": delegation.ScopeMisc,
}

// scopeByAction are the actions whose scope is not their prefix's: stars
// and watches are the user's own lists (Gitea's /user/starred), and
// subscriptions are notifications.
var scopeByAction = map[string]string{
	"repo.star": delegation.ScopeUser, "repo.unstar": delegation.ScopeUser,
	"repo.watch": delegation.ScopeNotification, "repo.unwatch": delegation.ScopeNotification,
	"issue.subscribe": delegation.ScopeNotification, "issue.unsubscribe": delegation.ScopeNotification,
}

// ScopeOf is the delegation scope action needs; an unknown action needs
// the repository scope (the module refuses it anyway).
func ScopeOf(action string) string {
	if s, ok := scopeByAction[action]; ok {
		return s
	}
	prefix, _, _ := strings.Cut(action, ".")
	if s, ok := scopeByPrefix[prefix]; ok {
		return s
	}
	return delegation.ScopeRepository
}

func signatureRequired(what string) error {
	return tx.NewError(tx.CodeSignatureRequired, "%s needs your own wallet's signature: no node may do it in your name", what)
}
