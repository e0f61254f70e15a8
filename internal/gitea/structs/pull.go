package structs

// PRBranchInfo is Gitea's PRBranchInfo.
type PRBranchInfo struct {
	Label  string      `json:"label"`
	Ref    string      `json:"ref"`
	SHA    string      `json:"sha"`
	RepoID uint64      `json:"repo_id"`
	Repo   *Repository `json:"repo"`
}

// PullRequest is Gitea's PullRequest, plus body_html, the files that
// conflict and the merge style.
type PullRequest struct {
	ID                  int64        `json:"id"`
	URL                 string       `json:"url"`
	Number              uint64       `json:"number"`
	User                User         `json:"user"`
	Title               string       `json:"title"`
	Body                string       `json:"body"`
	BodyHTML            string       `json:"body_html"`
	Labels              []Label      `json:"labels"`
	Milestone           *Milestone   `json:"milestone"`
	Assignee            *User        `json:"assignee"`
	Assignees           []User       `json:"assignees"`
	RequestedReviewers  []User       `json:"requested_reviewers"`
	State               string       `json:"state"`
	Draft               bool         `json:"draft"`
	IsLocked            bool         `json:"is_locked"`
	Comments            uint64       `json:"comments"`
	ReviewComments      int          `json:"review_comments"`
	Additions           *int         `json:"additions,omitempty"`
	Deletions           *int         `json:"deletions,omitempty"`
	ChangedFiles        *int         `json:"changed_files,omitempty"`
	HTMLURL             string       `json:"html_url"`
	DiffURL             string       `json:"diff_url"`
	PatchURL            string       `json:"patch_url"`
	Mergeable           bool         `json:"mergeable"`
	ConflictedFiles     []string     `json:"conflicted_files"`
	MergeableReason     string       `json:"mergeable_reason,omitempty"`
	Merged              bool         `json:"merged"`
	MergedAt            *string      `json:"merged_at"`
	MergeCommitSHA      *string      `json:"merge_commit_sha"`
	MergedBy            *User        `json:"merged_by"`
	MergeStyle          string       `json:"merge_style,omitempty"`
	AllowMaintainerEdit bool         `json:"allow_maintainer_edit"`
	Base                PRBranchInfo `json:"base"`
	Head                PRBranchInfo `json:"head"`
	MergeBase           string       `json:"merge_base"`
	DueDate             *string      `json:"due_date"`
	Created             string       `json:"created_at"`
	Updated             string       `json:"updated_at"`
	Closed              *string      `json:"closed_at"`
	PinOrder            int          `json:"pin_order"`
	// Signer and Delegation: as an issue's (dForge).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
	// Hidden: this node's moderators hid it (dForge); HiddenReason is why.
	Hidden       bool   `json:"hidden,omitempty"`
	HiddenReason string `json:"hidden_reason,omitempty"`
}
