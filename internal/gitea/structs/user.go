package structs

// User is Gitea's User for a forge participant: an address with its chain
// username. Node-local profile fields are in /users/{username}.
type User struct {
	ID            int64  `json:"id"`
	Login         string `json:"login"`
	FullName      string `json:"full_name"`
	Email         string `json:"email"`
	AvatarURL     string `json:"avatar_url"`
	HTMLURL       string `json:"html_url"`
	WalletAddress string `json:"wallet_address"`
	// IsAdmin: Gitea tells it to the user and the site's admins only.
	IsAdmin bool `json:"is_admin"`
	UserCommon
}

// UserCommon are the fields of Gitea's User that are the same for every
// dForge account: a wallet signs itself in (no login name or source, never
// prohibited or restricted), every profile is public, and Gitea's answer
// for a time it does not show is the Unix epoch. Username repeats the
// login, as Gitea's User.MarshalJSON adds it for older clients.
type UserCommon struct {
	UserName      string `json:"username"`
	LoginName     string `json:"login_name"`
	SourceID      int64  `json:"source_id"`
	Active        bool   `json:"active"`
	ProhibitLogin bool   `json:"prohibit_login"`
	Restricted    bool   `json:"restricted"`
	Language      string `json:"language"`
	LastLogin     string `json:"last_login"`
	Visibility    string `json:"visibility"`
}

// PayloadUser and PayloadCommit are Gitea's: a commit, with its author
// and committer as git names them, as a push event lists it and a branch
// shows its newest, plus the commit's IPFS CID (public repositories).
// (Declared as a group: each API alias keeps the OpenAPI description it
// always had.)
type (
	PayloadUser struct {
		Name     string `json:"name"`
		Email    string `json:"email"`
		UserName string `json:"username"`
	}

	PayloadCommit struct {
		ID           string      `json:"id"`
		Message      string      `json:"message"`
		URL          string      `json:"url"`
		Author       PayloadUser `json:"author"`
		Committer    PayloadUser `json:"committer"`
		Verification any         `json:"verification"`
		Timestamp    string      `json:"timestamp"`
		Added        []string    `json:"added"`
		Removed      []string    `json:"removed"`
		Modified     []string    `json:"modified"`
		CID          string      `json:"cid,omitempty"`
	}
)
