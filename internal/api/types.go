package api

// The JSON shapes of the forge's resources: Gitea's API v1 structs
// (modules/structs) with dForge's additions, apart from the handlers that
// write them. convert.go fills them from the index and git.

// linksJSON is Gitea's FileLinksResponse.
type linksJSON struct {
	Self *string `json:"self"`
	Git  *string `json:"git"`
	HTML *string `json:"html"`
}

// ContentJSON is Gitea's ContentsResponse, with dForge's notices for files
// it does not inline.
type ContentJSON struct {
	Name            string    `json:"name"`
	Path            string    `json:"path"`
	SHA             string    `json:"sha"`
	LastCommitSHA   string    `json:"last_commit_sha"`
	Type            string    `json:"type"`
	Size            int64     `json:"size"`
	Encoding        *string   `json:"encoding"`
	Content         *string   `json:"content"`
	Target          *string   `json:"target"`
	URL             *string   `json:"url"`
	HTMLURL         *string   `json:"html_url"`
	GitURL          *string   `json:"git_url"`
	DownloadURL     *string   `json:"download_url"`
	SubmoduleGitURL *string   `json:"submodule_git_url"`
	Links           linksJSON `json:"_links"`
	// TooLarge: the file is over maxContentSize; Binary: it has a NUL in
	// its first 8000 bytes (git's test). Neither is inlined.
	TooLarge bool `json:"too_large"`
	Binary   bool `json:"binary"`
}

// GitEntryJSON and gitTreeJSON are Gitea's GitEntry and GitTreeResponse.
type GitEntryJSON struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	Type string `json:"type"`
	Size int64  `json:"size"`
	SHA  string `json:"sha"`
	URL  string `json:"url"`
}

type GitTreeJSON struct {
	SHA        string         `json:"sha"`
	URL        string         `json:"url"`
	Entries    []GitEntryJSON `json:"tree"`
	Truncated  bool           `json:"truncated"`
	Page       int            `json:"page"`
	TotalCount int            `json:"total_count"`
}

// RefJSON is Gitea's Reference.
type RefJSON struct {
	Ref    string `json:"ref"`
	URL    string `json:"url"`
	Object struct {
		Type string `json:"type"`
		SHA  string `json:"sha"`
		URL  string `json:"url"`
	} `json:"object"`
}

// IdentityJSON is Gitea's CommitUser.
type IdentityJSON struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"`
}

type CommitMetaJSON struct {
	URL     string `json:"url"`
	SHA     string `json:"sha"`
	Created string `json:"created,omitempty"`
}

type commitFileJSON struct {
	Filename         string `json:"filename"`
	PreviousFilename string `json:"previous_filename,omitempty"`
	Status           string `json:"status"`
	Additions        int    `json:"additions"`
	Deletions        int    `json:"deletions"`
	Changes          int    `json:"changes"`
	Binary           bool   `json:"binary"`
}

type commitStatsJSON struct {
	Total     int `json:"total"`
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
}

// CommitJSON is Gitea's Commit, with the commit's IPFS CID (public
// repositories) and, when asked for, its diff.
type CommitJSON struct {
	CommitMetaJSON
	HTMLURL string `json:"html_url"`
	Commit  struct {
		URL          string         `json:"url"`
		Author       IdentityJSON   `json:"author"`
		Committer    IdentityJSON   `json:"committer"`
		Message      string         `json:"message"`
		Tree         CommitMetaJSON `json:"tree"`
		Verification any            `json:"verification"`
	} `json:"commit"`
	Author        *ForgeUserJSON   `json:"author"`
	Committer     *ForgeUserJSON   `json:"committer"`
	Parents       []CommitMetaJSON `json:"parents"`
	Files         []commitFileJSON `json:"files,omitempty"`
	Stats         *commitStatsJSON `json:"stats,omitempty"`
	CID           string           `json:"cid,omitempty"`
	Diff          *string          `json:"diff,omitempty"`
	DiffTruncated *bool            `json:"diff_truncated,omitempty"`
}

// payloadUserJSON and payloadCommitJSON are Gitea's PayloadUser and
// PayloadCommit, as a branch shows its newest commit.
type payloadUserJSON struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	UserName string `json:"username"`
}

type payloadCommitJSON struct {
	ID           string          `json:"id"`
	Message      string          `json:"message"`
	URL          string          `json:"url"`
	Author       payloadUserJSON `json:"author"`
	Committer    payloadUserJSON `json:"committer"`
	Verification any             `json:"verification"`
	Timestamp    string          `json:"timestamp"`
	Added        []string        `json:"added"`
	Removed      []string        `json:"removed"`
	Modified     []string        `json:"modified"`
	CID          string          `json:"cid,omitempty"`
}

// BranchJSON is Gitea's Branch.
type BranchJSON struct {
	Name                          string            `json:"name"`
	Commit                        payloadCommitJSON `json:"commit"`
	Protected                     bool              `json:"protected"`
	RequiredApprovals             int               `json:"required_approvals"`
	EnableStatusCheck             bool              `json:"enable_status_check"`
	StatusCheckContexts           []string          `json:"status_check_contexts"`
	UserCanPush                   bool              `json:"user_can_push"`
	UserCanMerge                  bool              `json:"user_can_merge"`
	EffectiveBranchProtectionName string            `json:"effective_branch_protection_name"`
}

// TagJSON is Gitea's Tag.
type TagJSON struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	ID      string `json:"id"`
	Commit  *struct {
		CommitMetaJSON
		CID string `json:"cid,omitempty"`
	} `json:"commit"`
	// Tagger is an annotated tag's, as Gitea's AnnotatedTag has it.
	Tagger     *TagTaggerJSON `json:"tagger,omitempty"`
	ZipballURL string         `json:"zipball_url"`
	TarballURL string         `json:"tarball_url"`
}

// TagTaggerJSON is Gitea's CommitUser of an annotated tag.
type TagTaggerJSON struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"`
}

type ContributorJSON struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Commits int    `json:"commits"`
	// Login is the account the commits are counted for: the author email
	// names it (claimed, its wallet's or its web commits'); "" for none.
	Login string `json:"login,omitempty"`
}

// CountsJSON is what a repository's home shows in its header.
type CountsJSON struct {
	Commits    int    `json:"commits"`
	Branches   int    `json:"branches"`
	Tags       int    `json:"tags"`
	Stars      uint64 `json:"stars"`
	Forks      uint64 `json:"forks"`
	Watchers   uint64 `json:"watchers"`
	OpenIssues uint64 `json:"open_issues"`
	OpenPulls  uint64 `json:"open_pulls"`
}

// ForgeUserJSON is Gitea's User for a forge participant: an address with
// its chain username. Node-local profile fields are in /users/{username}.
type ForgeUserJSON struct {
	ID            int64  `json:"id"`
	Login         string `json:"login"`
	FullName      string `json:"full_name"`
	Email         string `json:"email"`
	AvatarURL     string `json:"avatar_url"`
	HTMLURL       string `json:"html_url"`
	WalletAddress string `json:"wallet_address"`
	// IsAdmin: Gitea tells it to the user and the site's admins only.
	IsAdmin bool `json:"is_admin"`
	giteaUserJSON
}

// giteaUserJSON are the fields of Gitea's User that are the same for every
// dForge account: a wallet signs itself in (no login name or source, never
// prohibited or restricted), every profile is public, and Gitea's answer
// for a time it does not show is the Unix epoch. Username repeats the
// login, as Gitea's User.MarshalJSON adds it for older clients.
type giteaUserJSON struct {
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

// giteaUnshown is the time Gitea sends for one it does not show (a zero
// Unix time): a last login, the archiving of a repository never archived.
const giteaUnshown = "1970-01-01T00:00:00Z"

func giteaUser(login string) giteaUserJSON {
	return giteaUserJSON{UserName: login, Active: true, LastLogin: giteaUnshown, Visibility: "public"}
}

// permJSON is Gitea's Permission, with the maintain level Gitea lacks.
type permJSON struct {
	Admin    bool `json:"admin"`
	Push     bool `json:"push"`
	Pull     bool `json:"pull"`
	Maintain bool `json:"maintain"`
}

// RepoJSON is Gitea's Repository.
type RepoJSON struct {
	ID                  uint64        `json:"id"`
	Owner               ForgeUserJSON `json:"owner"`
	Name                string        `json:"name"`
	FullName            string        `json:"full_name"`
	Description         string        `json:"description"`
	Empty               bool          `json:"empty"`
	Private             bool          `json:"private"`
	Fork                bool          `json:"fork"`
	Template            bool          `json:"template"`
	Parent              *RepoJSON     `json:"parent"`
	Mirror              bool          `json:"mirror"`
	Size                int           `json:"size"`
	Language            string        `json:"language"`
	HTMLURL             string        `json:"html_url"`
	URL                 string        `json:"url"`
	SSHURL              string        `json:"ssh_url"`
	CloneURL            string        `json:"clone_url"`
	OriginalURL         string        `json:"original_url"`
	Website             string        `json:"website"`
	StarsCount          uint64        `json:"stars_count"`
	ForksCount          uint64        `json:"forks_count"`
	WatchersCount       uint64        `json:"watchers_count"`
	OpenIssuesCount     uint64        `json:"open_issues_count"`
	OpenPRCounter       uint64        `json:"open_pr_counter"`
	ReleaseCounter      int           `json:"release_counter"`
	DefaultBranch       string        `json:"default_branch"`
	Archived            bool          `json:"archived"`
	CreatedAt           string        `json:"created_at"`
	UpdatedAt           string        `json:"updated_at"`
	Permissions         *permJSON     `json:"permissions,omitempty"`
	HasIssues           bool          `json:"has_issues"`
	HasWiki             bool          `json:"has_wiki"`
	HasPullRequests     bool          `json:"has_pull_requests"`
	HasProjects         bool          `json:"has_projects"`
	HasReleases         bool          `json:"has_releases"`
	AllowMergeCommits   bool          `json:"allow_merge_commits"`
	AllowRebase         bool          `json:"allow_rebase"`
	AllowRebaseExplicit bool          `json:"allow_rebase_explicit"`
	AllowSquashMerge    bool          `json:"allow_squash_merge"`
	AllowFastForward    bool          `json:"allow_fast_forward_only_merge"`
	DefaultMergeStyle   string        `json:"default_merge_style"`
	AvatarURL           string        `json:"avatar_url"`
	Internal            bool          `json:"internal"`
	Topics              []string      `json:"topics"`
	LanguagesURL        string        `json:"languages_url"`
	Link                string        `json:"link"`
	ObjectFormatName    string        `json:"object_format_name"`
	ArchivedAt          string        `json:"archived_at"`
	// Gitea's settings dForge has one answer to: no packages, no
	// projects of its own, no mirrors, merges keep the head branch.
	HasActions     bool   `json:"has_actions"`
	HasPackages    bool   `json:"has_packages"`
	ProjectsMode   string `json:"projects_mode"`
	MirrorInterval string `json:"mirror_interval"`
	// RepoTransfer is the pending transfer, while one waits for its
	// recipient (null otherwise), as Gitea's.
	RepoTransfer                  *repoTransferJSON `json:"repo_transfer"`
	IgnoreWhitespaceConflicts     bool              `json:"ignore_whitespace_conflicts"`
	AllowRebaseUpdate             bool              `json:"allow_rebase_update"`
	DefaultDeleteBranchAfterMerge bool              `json:"default_delete_branch_after_merge"`
	DefaultAllowMaintainerEdit    bool              `json:"default_allow_maintainer_edit"`
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
	// Replication is how copying the git data here from another node
	// stands, while has_git_data is false on a node that seeds it.
	Replication *replicationJSON `json:"replication,omitempty"`
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

// replicationJSON is where copying a repository's git data from another
// node stands.
type replicationJSON struct {
	// State is replicating, ready or failed (retried).
	State string `json:"state"`
	// Done is how many of the Total refs are at the chain's values.
	Done  int    `json:"done"`
	Total int    `json:"total"`
	Error string `json:"error,omitempty"`
}

// WatchInfoJSON is Gitea's WatchInfo.
type WatchInfoJSON struct {
	Subscribed    bool    `json:"subscribed"`
	Ignored       bool    `json:"ignored"`
	Reason        *string `json:"reason"`
	CreatedAt     string  `json:"created_at"`
	URL           string  `json:"url"`
	RepositoryURL string  `json:"repository_url"`
}

// CollaboratorJSON is Gitea's User with the collaborator's permission.
type CollaboratorJSON struct {
	ForgeUserJSON
	Permission string `json:"permission"`
}

// LabelJSON is Gitea's Label; colors are hex without '#', as Gitea gives them.
type LabelJSON struct {
	ID          uint64 `json:"id"`
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	IsArchived  bool   `json:"is_archived"`
	Color       string `json:"color"`
	Description string `json:"description"`
	URL         string `json:"url"`
}

// repoMetaJSON is Gitea's RepositoryMeta, the repository an issue is in.
type repoMetaJSON struct {
	ID       uint64 `json:"id"`
	Name     string `json:"name"`
	Owner    string `json:"owner"`
	FullName string `json:"full_name"`
}

// PullMetaJSON is Gitea's PullRequestMeta on an issue that is a pull request.
type PullMetaJSON struct {
	Merged   bool    `json:"merged"`
	MergedAt *string `json:"merged_at"`
	Draft    bool    `json:"draft"`
	HTMLURL  string  `json:"html_url"`
}

// IssueJSON is Gitea's Issue, plus body_html and state_reason.
type IssueJSON struct {
	ID               int64           `json:"id"`
	URL              string          `json:"url"`
	HTMLURL          string          `json:"html_url"`
	Number           uint64          `json:"number"`
	User             ForgeUserJSON   `json:"user"`
	OriginalAuthor   string          `json:"original_author"`
	OriginalAuthorID int64           `json:"original_author_id"`
	Title            string          `json:"title"`
	Body             string          `json:"body"`
	BodyHTML         string          `json:"body_html"`
	Ref              string          `json:"ref"`
	Assets           []struct{}      `json:"assets"`
	Labels           []LabelJSON     `json:"labels"`
	Milestone        *MilestoneJSON  `json:"milestone"`
	Assignee         *ForgeUserJSON  `json:"assignee"`
	Assignees        []ForgeUserJSON `json:"assignees"`
	State            string          `json:"state"`
	StateReason      string          `json:"state_reason"`
	IsLocked         bool            `json:"is_locked"`
	Comments         uint64          `json:"comments"`
	Created          string          `json:"created_at"`
	Updated          string          `json:"updated_at"`
	Closed           *string         `json:"closed_at"`
	DueDate          *string         `json:"due_date"`
	PullRequest      *PullMetaJSON   `json:"pull_request"`
	Repository       repoMetaJSON    `json:"repository"`
	PinOrder         int             `json:"pin_order"`
	// Signer is the key that signed it and Delegation the delegate key it
	// was signed under, "" when the author's own (dForge; both "" for
	// records from before the own-keys rules).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
	// Hidden: this node's moderators hid it (dForge); HiddenReason is why.
	Hidden       bool   `json:"hidden,omitempty"`
	HiddenReason string `json:"hidden_reason,omitempty"`
}

// CommentJSON is Gitea's Comment, plus body_html.
type CommentJSON struct {
	ID               uint64        `json:"id"`
	HTMLURL          string        `json:"html_url"`
	PullRequestURL   string        `json:"pull_request_url"`
	IssueURL         string        `json:"issue_url"`
	User             ForgeUserJSON `json:"user"`
	OriginalAuthor   string        `json:"original_author"`
	OriginalAuthorID int64         `json:"original_author_id"`
	Body             string        `json:"body"`
	BodyHTML         string        `json:"body_html"`
	Assets           []struct{}    `json:"assets"`
	Created          string        `json:"created_at"`
	Updated          string        `json:"updated_at"`
	// Signer and Delegation: as an issue's (dForge).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
	// Hidden: this node's moderators hid it (dForge); HiddenReason is why.
	Hidden       bool   `json:"hidden,omitempty"`
	HiddenReason string `json:"hidden_reason,omitempty"`
}

// prBranchJSON is Gitea's PRBranchInfo.
type prBranchJSON struct {
	Label  string    `json:"label"`
	Ref    string    `json:"ref"`
	SHA    string    `json:"sha"`
	RepoID uint64    `json:"repo_id"`
	Repo   *RepoJSON `json:"repo"`
}

// PullJSON is Gitea's PullRequest, plus body_html, the files that
// conflict and the merge style.
type PullJSON struct {
	ID                  int64           `json:"id"`
	URL                 string          `json:"url"`
	Number              uint64          `json:"number"`
	User                ForgeUserJSON   `json:"user"`
	Title               string          `json:"title"`
	Body                string          `json:"body"`
	BodyHTML            string          `json:"body_html"`
	Labels              []LabelJSON     `json:"labels"`
	Milestone           *MilestoneJSON  `json:"milestone"`
	Assignee            *ForgeUserJSON  `json:"assignee"`
	Assignees           []ForgeUserJSON `json:"assignees"`
	RequestedReviewers  []ForgeUserJSON `json:"requested_reviewers"`
	State               string          `json:"state"`
	Draft               bool            `json:"draft"`
	IsLocked            bool            `json:"is_locked"`
	Comments            uint64          `json:"comments"`
	ReviewComments      int             `json:"review_comments"`
	Additions           *int            `json:"additions,omitempty"`
	Deletions           *int            `json:"deletions,omitempty"`
	ChangedFiles        *int            `json:"changed_files,omitempty"`
	HTMLURL             string          `json:"html_url"`
	DiffURL             string          `json:"diff_url"`
	PatchURL            string          `json:"patch_url"`
	Mergeable           bool            `json:"mergeable"`
	ConflictedFiles     []string        `json:"conflicted_files"`
	MergeableReason     string          `json:"mergeable_reason,omitempty"`
	Merged              bool            `json:"merged"`
	MergedAt            *string         `json:"merged_at"`
	MergeCommitSHA      *string         `json:"merge_commit_sha"`
	MergedBy            *ForgeUserJSON  `json:"merged_by"`
	MergeStyle          string          `json:"merge_style,omitempty"`
	AllowMaintainerEdit bool            `json:"allow_maintainer_edit"`
	Base                prBranchJSON    `json:"base"`
	Head                prBranchJSON    `json:"head"`
	MergeBase           string          `json:"merge_base"`
	DueDate             *string         `json:"due_date"`
	Created             string          `json:"created_at"`
	Updated             string          `json:"updated_at"`
	Closed              *string         `json:"closed_at"`
	PinOrder            int             `json:"pin_order"`
	// Signer and Delegation: as an issue's (dForge).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
	// Hidden: this node's moderators hid it (dForge); HiddenReason is why.
	Hidden       bool   `json:"hidden,omitempty"`
	HiddenReason string `json:"hidden_reason,omitempty"`
}

// ChangedFileJSON is Gitea's ChangedFile, plus the file's patch (cut at
// maxFilePatch bytes, which patch_truncated then says) and whether it is
// binary.
type ChangedFileJSON struct {
	Filename         string `json:"filename"`
	PreviousFilename string `json:"previous_filename,omitempty"`
	Status           string `json:"status"`
	Additions        int    `json:"additions"`
	Deletions        int    `json:"deletions"`
	Changes          int    `json:"changes"`
	HTMLURL          string `json:"html_url"`
	ContentsURL      string `json:"contents_url"`
	RawURL           string `json:"raw_url"`
	Binary           bool   `json:"binary"`
	Patch            string `json:"patch"`
	PatchTruncated   bool   `json:"patch_truncated"`
}

// ReviewJSON is Gitea's PullReview, plus body_html.
type ReviewJSON struct {
	ID                uint64         `json:"id"`
	User              ForgeUserJSON  `json:"user"`
	Team              *struct{}      `json:"team"`
	State             string         `json:"state"`
	Body              string         `json:"body"`
	BodyHTML          string         `json:"body_html"`
	CommitID          string         `json:"commit_id"`
	Stale             bool           `json:"stale"`
	Official          bool           `json:"official"`
	Dismissed         bool           `json:"dismissed"`
	CodeCommentsCount int            `json:"comments_count"`
	Submitted         string         `json:"submitted_at"`
	Updated           string         `json:"updated_at"`
	HTMLURL           string         `json:"html_url"`
	PullRequestURL    string         `json:"pull_request_url"`
	Resolver          *ForgeUserJSON `json:"-"`
	// Signer and Delegation: as an issue's (dForge; "" for a review
	// request, which is no record of the reviewer's).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}

// ReviewCommentJSON is Gitea's PullReviewComment, plus body_html: position
// is the line in the head's file, original_position the line in the base's.
type ReviewCommentJSON struct {
	ID               uint64         `json:"id"`
	Body             string         `json:"body"`
	BodyHTML         string         `json:"body_html"`
	User             ForgeUserJSON  `json:"user"`
	Resolver         *ForgeUserJSON `json:"resolver"`
	ReviewID         uint64         `json:"pull_request_review_id"`
	Created          string         `json:"created_at"`
	Updated          string         `json:"updated_at"`
	Path             string         `json:"path"`
	CommitID         string         `json:"commit_id"`
	OriginalCommitID string         `json:"original_commit_id"`
	DiffHunk         string         `json:"diff_hunk"`
	Position         uint64         `json:"position"`
	OriginalPosition uint64         `json:"original_position"`
	HTMLURL          string         `json:"html_url"`
	PullRequestURL   string         `json:"pull_request_url"`
	// Outdated: the pull request's head changed the line since the
	// comment was made (dForge; see Pulls.Outdated for the rule).
	Outdated bool `json:"outdated"`
}

// MergeConflictJSON is the 409 of a merge that conflicts: the error shape
// with the files.
type MergeConflictJSON struct {
	Message string   `json:"message"`
	Code    string   `json:"code"`
	Files   []string `json:"files"`
}

// TeamJSON is Gitea's Team.
type TeamJSON struct {
	ID                      int64             `json:"id"`
	Name                    string            `json:"name"`
	Description             string            `json:"description"`
	Organization            *OrgJSON          `json:"organization"`
	IncludesAllRepositories bool              `json:"includes_all_repositories"`
	Permission              string            `json:"permission"`
	Units                   []string          `json:"units"`
	UnitsMap                map[string]string `json:"units_map"`
	CanCreateOrgRepo        bool              `json:"can_create_org_repo"`
	MembersCount            uint64            `json:"members_count"`
}

// OrgJSON is Gitea's Organization, with the address it owns by.
type OrgJSON struct {
	ID                        int64  `json:"id"`
	Name                      string `json:"name"`
	UserName                  string `json:"username"`
	FullName                  string `json:"full_name"`
	Email                     string `json:"email"`
	AvatarURL                 string `json:"avatar_url"`
	Description               string `json:"description"`
	Website                   string `json:"website"`
	Location                  string `json:"location"`
	Visibility                string `json:"visibility"`
	RepoAdminChangeTeamAccess bool   `json:"repo_admin_change_team_access"`
	WalletAddress             string `json:"wallet_address"`
	RepoCount                 uint64 `json:"repo_count"`
	HTMLURL                   string `json:"html_url"`
}
