package structs

// Label is Gitea's Label; colors are hex without '#', as Gitea gives them.
type Label struct {
	ID          uint64 `json:"id"`
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	IsArchived  bool   `json:"is_archived"`
	Color       string `json:"color"`
	Description string `json:"description"`
	URL         string `json:"url"`
	// Signer and Delegation: as an issue's (dForge).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}

// RepositoryMeta is Gitea's RepositoryMeta, the repository an issue is in.
type RepositoryMeta struct {
	ID       uint64 `json:"id"`
	Name     string `json:"name"`
	Owner    string `json:"owner"`
	FullName string `json:"full_name"`
}

// PullRequestMeta is Gitea's PullRequestMeta on an issue that is a pull request.
type PullRequestMeta struct {
	Merged   bool    `json:"merged"`
	MergedAt *string `json:"merged_at"`
	Draft    bool    `json:"draft"`
	HTMLURL  string  `json:"html_url"`
}

// Issue is Gitea's Issue, plus body_html and state_reason.
type Issue struct {
	ID               int64            `json:"id"`
	URL              string           `json:"url"`
	HTMLURL          string           `json:"html_url"`
	Number           uint64           `json:"number"`
	User             User             `json:"user"`
	OriginalAuthor   string           `json:"original_author"`
	OriginalAuthorID int64            `json:"original_author_id"`
	Title            string           `json:"title"`
	Body             string           `json:"body"`
	BodyHTML         string           `json:"body_html"`
	Ref              string           `json:"ref"`
	Assets           []struct{}       `json:"assets"`
	Labels           []Label          `json:"labels"`
	Milestone        *Milestone       `json:"milestone"`
	Assignee         *User            `json:"assignee"`
	Assignees        []User           `json:"assignees"`
	State            string           `json:"state"`
	StateReason      string           `json:"state_reason"`
	IsLocked         bool             `json:"is_locked"`
	Comments         uint64           `json:"comments"`
	Created          string           `json:"created_at"`
	Updated          string           `json:"updated_at"`
	Closed           *string          `json:"closed_at"`
	DueDate          *string          `json:"due_date"`
	PullRequest      *PullRequestMeta `json:"pull_request"`
	Repository       RepositoryMeta   `json:"repository"`
	PinOrder         int              `json:"pin_order"`
	// Signer is the key that signed it and Delegation the delegate key it
	// was signed under, "" when the author's own (dForge; both "" for
	// records from before the own-keys rules).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
	// Hidden: this node's moderators hid it (dForge); HiddenReason is why.
	Hidden       bool   `json:"hidden,omitempty"`
	HiddenReason string `json:"hidden_reason,omitempty"`
}

// Comment is Gitea's Comment, plus body_html.
type Comment struct {
	ID               uint64     `json:"id"`
	HTMLURL          string     `json:"html_url"`
	PullRequestURL   string     `json:"pull_request_url"`
	IssueURL         string     `json:"issue_url"`
	User             User       `json:"user"`
	OriginalAuthor   string     `json:"original_author"`
	OriginalAuthorID int64      `json:"original_author_id"`
	Body             string     `json:"body"`
	BodyHTML         string     `json:"body_html"`
	Assets           []struct{} `json:"assets"`
	Created          string     `json:"created_at"`
	Updated          string     `json:"updated_at"`
	// Signer and Delegation: as an issue's (dForge).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
	// Hidden: this node's moderators hid it (dForge); HiddenReason is why.
	Hidden       bool   `json:"hidden,omitempty"`
	HiddenReason string `json:"hidden_reason,omitempty"`
}

// Milestone is Gitea's Milestone.
type Milestone struct {
	ID           uint64  `json:"id"`
	Title        string  `json:"title"`
	Description  string  `json:"description"`
	State        string  `json:"state"`
	OpenIssues   int64   `json:"open_issues"`
	ClosedIssues int64   `json:"closed_issues"`
	Created      string  `json:"created_at"`
	Updated      *string `json:"updated_at"`
	Closed       *string `json:"closed_at"`
	Due          *string `json:"due_on"`
	// Signer and Delegation: as an issue's (dForge).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}
