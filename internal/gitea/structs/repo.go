package structs

// Repository is Gitea's Repository.
type Repository struct {
	ID                  uint64      `json:"id"`
	Owner               User        `json:"owner"`
	Name                string      `json:"name"`
	FullName            string      `json:"full_name"`
	Description         string      `json:"description"`
	Empty               bool        `json:"empty"`
	Private             bool        `json:"private"`
	Fork                bool        `json:"fork"`
	Template            bool        `json:"template"`
	Parent              *Repository `json:"parent"`
	Mirror              bool        `json:"mirror"`
	Size                int         `json:"size"`
	Language            string      `json:"language"`
	HTMLURL             string      `json:"html_url"`
	URL                 string      `json:"url"`
	SSHURL              string      `json:"ssh_url"`
	CloneURL            string      `json:"clone_url"`
	OriginalURL         string      `json:"original_url"`
	Website             string      `json:"website"`
	StarsCount          uint64      `json:"stars_count"`
	ForksCount          uint64      `json:"forks_count"`
	WatchersCount       uint64      `json:"watchers_count"`
	OpenIssuesCount     uint64      `json:"open_issues_count"`
	OpenPRCounter       uint64      `json:"open_pr_counter"`
	ReleaseCounter      int         `json:"release_counter"`
	DefaultBranch       string      `json:"default_branch"`
	Archived            bool        `json:"archived"`
	CreatedAt           string      `json:"created_at"`
	UpdatedAt           string      `json:"updated_at"`
	Permissions         *Permission `json:"permissions,omitempty"`
	HasIssues           bool        `json:"has_issues"`
	HasWiki             bool        `json:"has_wiki"`
	HasPullRequests     bool        `json:"has_pull_requests"`
	HasProjects         bool        `json:"has_projects"`
	HasReleases         bool        `json:"has_releases"`
	AllowMergeCommits   bool        `json:"allow_merge_commits"`
	AllowRebase         bool        `json:"allow_rebase"`
	AllowRebaseExplicit bool        `json:"allow_rebase_explicit"`
	AllowSquashMerge    bool        `json:"allow_squash_merge"`
	AllowFastForward    bool        `json:"allow_fast_forward_only_merge"`
	DefaultMergeStyle   string      `json:"default_merge_style"`
	AvatarURL           string      `json:"avatar_url"`
	Internal            bool        `json:"internal"`
	Topics              []string    `json:"topics"`
	LanguagesURL        string      `json:"languages_url"`
	Link                string      `json:"link"`
	ObjectFormatName    string      `json:"object_format_name"`
	ArchivedAt          string      `json:"archived_at"`
	// Gitea's settings dForge has one answer to: no packages, no
	// projects of its own, no mirrors, merges keep the head branch.
	HasActions     bool   `json:"has_actions"`
	HasPackages    bool   `json:"has_packages"`
	ProjectsMode   string `json:"projects_mode"`
	MirrorInterval string `json:"mirror_interval"`
	// RepoTransfer is the pending transfer, while one waits for its
	// recipient (null otherwise), as Gitea's.
	RepoTransfer                  *RepoTransfer `json:"repo_transfer"`
	IgnoreWhitespaceConflicts     bool          `json:"ignore_whitespace_conflicts"`
	AllowRebaseUpdate             bool          `json:"allow_rebase_update"`
	DefaultDeleteBranchAfterMerge bool          `json:"default_delete_branch_after_merge"`
	DefaultAllowMaintainerEdit    bool          `json:"default_allow_maintainer_edit"`
	// dForge's own.
	ProtectedBranches []string `json:"protected_branches"`
	CreatedHeight     int64    `json:"created_height"`
	UpdatedHeight     int64    `json:"updated_height"`
	// OnChain: a public repository's record is on chain; a private one's
	// is node-local.
	OnChain bool `json:"on_chain"`
	// HasGitData is false on a node that holds the record but not the
	// repository's git data (it was created on another node).
	HasGitData bool `json:"has_git_data"`
	// Signer and Delegation: as an issue's, for the action that created
	// it (both "" for a private repository).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
	// Replication is how copying the git data here from another node
	// stands, while has_git_data is false on a node that seeds it.
	Replication *Replication `json:"replication,omitempty"`
	// Hidden: this node's moderators hid it (dForge); HiddenReason is why.
	Hidden       bool   `json:"hidden,omitempty"`
	HiddenReason string `json:"hidden_reason,omitempty"`
	// StarredByMe: whether the signed-in caller stars it (dForge), what GET
	// /user/starred/{owner}/{repo} tells with a 404 for no. Only in the
	// answers about one repository, and only to a signed-in caller.
	StarredByMe *bool `json:"starred_by_me,omitempty"`
	// WatchedByMe: whether the signed-in caller watches it (dForge), what
	// GET /repos/{owner}/{repo}/subscription tells with a 404 for no. The
	// owner, its collaborators with write or maintain and its
	// organization's owners watch by default until they unwatch. Only in
	// the answers about one repository, and only to a signed-in caller.
	WatchedByMe *bool `json:"watched_by_me,omitempty"`
}

// Permission is Gitea's Permission, with the maintain level Gitea lacks.
type Permission struct {
	Admin    bool `json:"admin"`
	Push     bool `json:"push"`
	Pull     bool `json:"pull"`
	Maintain bool `json:"maintain"`
}

// Replication is where copying a repository's git data from another
// node stands.
type Replication struct {
	// State is replicating, ready or failed (retried).
	State string `json:"state"`
	// Done is how many of the Total refs are at the chain's values.
	Done  int    `json:"done"`
	Total int    `json:"total"`
	Error string `json:"error,omitempty"`
}

// RepoTransfer is Gitea's RepoTransfer.
type RepoTransfer struct {
	Doer      User   `json:"doer"`
	Recipient User   `json:"recipient"`
	Teams     []Team `json:"teams"`
}
