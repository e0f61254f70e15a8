package index

import "github.com/dforge/dforge/internal/index/readdb"

// The forge reads (forge_repos_read.go, forge_issues_read.go,
// forge_pulls_read.go, forge_labels_read.go, forge_users_read.go, ...) and
// what they share. They return what is
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
