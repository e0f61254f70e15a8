package api

import "github.com/dforge/dforge/internal/gitea/structs"

// The JSON shapes of the forge's resources: Gitea's API v1 structs
// (modules/structs) with dForge's additions, apart from the handlers that
// write them. convert.go fills them from the index and git. The shapes
// the webhooks send too live once in internal/gitea/structs; the aliases
// here keep the names the handlers and the OpenAPI document know them by.

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
//
//lint:ignore U1000 no Go code names it, but the OpenAPI generator names structs.PayloadUser (inside PayloadCommit) after it
type payloadUserJSON = structs.PayloadUser

type payloadCommitJSON = structs.PayloadCommit

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
	// PushedAt is when the last push to the branch was ordered by the
	// chain (dForge; null for a branch no push on record made). A commit's
	// own time says when it was written, not when it arrived.
	PushedAt *string `json:"pushed_at"`
	// Pusher is who made that push (dForge; null when pushed_at is).
	Pusher *ForgeUserJSON `json:"pusher"`
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
type ForgeUserJSON = structs.User

// giteaUserJSON are the fields of Gitea's User that are the same for every
// dForge account: a wallet signs itself in (no login name or source, never
// prohibited or restricted), every profile is public, and Gitea's answer
// for a time it does not show is the Unix epoch. Username repeats the
// login, as Gitea's User.MarshalJSON adds it for older clients.
type giteaUserJSON = structs.UserCommon

// permJSON is Gitea's Permission, with the maintain level Gitea lacks.
type permJSON = structs.Permission

// RepoJSON is Gitea's Repository.
type RepoJSON = structs.Repository

// replicationJSON is where copying a repository's git data from another
// node stands.
type replicationJSON = structs.Replication

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
type LabelJSON = structs.Label

// repoMetaJSON is Gitea's RepositoryMeta, the repository an issue is in.
type repoMetaJSON = structs.RepositoryMeta

// PullMetaJSON is Gitea's PullRequestMeta on an issue that is a pull request.
type PullMetaJSON = structs.PullRequestMeta

// IssueJSON is Gitea's Issue, plus body_html and state_reason.
type IssueJSON = structs.Issue

// CommentJSON is Gitea's Comment, plus body_html.
type CommentJSON = structs.Comment

// prBranchJSON is Gitea's PRBranchInfo.
type prBranchJSON = structs.PRBranchInfo

// PullJSON is Gitea's PullRequest, plus body_html, the files that
// conflict and the merge style.
type PullJSON = structs.PullRequest

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
type TeamJSON = structs.Team

// OrgJSON is Gitea's Organization, with the address it owns by.
type OrgJSON = structs.Organization
