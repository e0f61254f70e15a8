package index

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/names"
)

// The forge reads (forge_repos.go, forge_issues.go, forge_pulls.go,
// forge_labels.go, forge_users.go) and what they share. They return what is
// projected, private rows included: the forge service decides who may see
// them (Permission).

// User is an address with the username the chain gives it.
type User struct {
	Address  string `json:"address"`
	Username string `json:"username"`
}

// userExpr gives a user's name from chain_accounts joined as alias a.
func userExpr(a string) string { return "COALESCE(" + a + ".username, " + a + ".default_name, '')" }

// user builds a User from an address and the joined name ("" when the
// chain never touched the account: its default name).
func user(addr, name string) User {
	if name == "" && common.IsHexAddress(addr) {
		name = names.Default(common.HexToAddress(addr))
	}
	return User{Address: addr, Username: name}
}

// likeEscape quotes s for a LIKE pattern written with ESCAPE '\'.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
