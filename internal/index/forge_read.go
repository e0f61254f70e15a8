package index

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"
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

// userExpr gives a user's name from chain_accounts joined as alias a: the
// claimed one, else the default. An address the chain has not met has no
// row, and gets "" (wide names) or "-" (a chain before own-keys; no name
// starts with '-'), which user turns into the default the chain's rules
// will give it.
func userExpr(a string) string {
	return "COALESCE(" + a + ".username, " + a + ".default_name, " + unmetName + ", '')"
}

// unmetName is the marker of the naming rules in force, for userExpr.
const unmetName = "(SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1)"

// user builds a User from an address and the joined name (userExpr).
func user(addr, name string) User {
	if (name == "" || name == "-") && common.IsHexAddress(addr) {
		a := common.HexToAddress(addr)
		name = defaultName(a, name == "")
	}
	return User{Address: addr, Username: name}
}

// likeEscape quotes s for a LIKE pattern written with ESCAPE '\'.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
