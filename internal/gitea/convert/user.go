package convert

import "github.com/dforge/dforge/internal/gitea/structs"

// Unshown is the time Gitea sends for one it does not show (a zero Unix
// time): a last login, the archiving of a repository never archived.
const Unshown = "1970-01-01T00:00:00Z"

// UserCommon is what every dForge account's User says the same way.
func UserCommon(login string) structs.UserCommon {
	return structs.UserCommon{UserName: login, Active: true, LastLogin: Unshown, Visibility: "public"}
}

// User is Gitea's User of a forge participant: id is its account id
// (0 when unknown), wallet its address in EIP-55 form.
func User(site string, id int64, login, wallet string) structs.User {
	return structs.User{ID: id, Login: login, HTMLURL: site + "/" + login, WalletAddress: wallet, UserCommon: UserCommon(login)}
}
