package readdb

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/names"
)

// User is an address with the username the chain gives it.
type User struct {
	Address  string `json:"address"`
	Username string `json:"username"`
}

// UserExpr gives a user's name from chain_accounts joined as alias a: the
// claimed one, else the default. An address the chain has not met has no
// row, and gets "" (wide names) or "-" (a chain before own-keys; no name
// starts with '-'), which UserOf turns into the default the chain's rules
// will give it.
func UserExpr(a string) string {
	return "COALESCE(" + a + ".username, " + a + ".default_name, " + unmetName + ", '')"
}

// unmetName is the marker of the naming rules in force, for UserExpr.
const unmetName = "(SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1)"

// UserOf builds a User from an address and the joined name (UserExpr).
func UserOf(addr, name string) User {
	if (name == "" || name == "-") && common.IsHexAddress(addr) {
		a := common.HexToAddress(addr)
		name = DefaultName(a, name == "")
	}
	return User{Address: addr, Username: name}
}

// DefaultName is a's default name under the chain's rules: wide since
// own-keys.
func DefaultName(a common.Address, wide bool) string {
	if wide {
		return names.Default(a)
	}
	return names.LegacyDefault(a)
}

// LikeEscape quotes s for a LIKE pattern written with ESCAPE '\'.
func LikeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
