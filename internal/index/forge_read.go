package index

import "github.com/dforge/dforge/internal/index/readdb"

// The forge reads (forge_repos.go, forge_issues.go, forge_pulls.go,
// forge_labels.go, forge_users.go) and what they share. They return what is
// projected, private rows included: the forge service decides who may see
// them (Permission).

// User is an address with the username the chain gives it.
type User = readdb.User

// userExpr gives a user's name from chain_accounts joined as alias a
// (readdb.UserExpr).
func userExpr(a string) string { return readdb.UserExpr(a) }

// user builds a User from an address and the joined name (userExpr).
func user(addr, name string) User { return readdb.UserOf(addr, name) }

func likeEscape(s string) string { return readdb.LikeEscape(s) }
