package forge

// Action is a payload that names its action, so a caller hands the forge
// one typed value rather than a name and a payload that may disagree
// (forge.Service.Do). Payloads that several actions share have a named type
// per action.
type Action interface {
	ActionName() string
}

// The payloads of actions that share a shape.
type (
	RepoDelete  RepoRef
	RepoStar    RepoRef
	RepoUnstar  RepoRef
	RepoWatch   RepoRef
	RepoUnwatch RepoRef
	IssueClose  IssueState
	IssueReopen IssueState
	PullClose   IssueState
	PullReopen  IssueState

	OrgDelete        OrgRef
	TeamDelete       TeamRef
	TeamMemberAdd    TeamUser
	TeamMemberRemove TeamUser
	TeamRepoAdd      TeamRepoRef
	TeamRepoRemove   TeamRepoRef

	// ReactionAdd and ReactionRemove share ReactionSet.
	ReactionAdd    ReactionSet
	ReactionRemove ReactionSet
	// IssuePinAction is issue.pin's IssuePin, named apart from the shape.
	IssuePinAction IssuePin
	IssueUnpin     IssuePin
	// IssueSubscribeAction is issue.subscribe's IssueSubscribe.
	IssueSubscribeAction IssueSubscribe
	IssueUnsubscribe     IssueSubscribe
)

func (RepoCreate) ActionName() string           { return "repo.create" }
func (RepoUpdate) ActionName() string           { return "repo.update" }
func (RepoDelete) ActionName() string           { return "repo.delete" }
func (RepoTransfer) ActionName() string         { return "repo.transfer" }
func (RepoTransferAccept) ActionName() string   { return "repo.transfer.accept" }
func (RepoTransferReject) ActionName() string   { return "repo.transfer.reject" }
func (RepoFork) ActionName() string             { return "repo.fork" }
func (RepoStar) ActionName() string             { return "repo.star" }
func (RepoUnstar) ActionName() string           { return "repo.unstar" }
func (RepoWatch) ActionName() string            { return "repo.watch" }
func (RepoUnwatch) ActionName() string          { return "repo.unwatch" }
func (CollaboratorSet) ActionName() string      { return "repo.collaborator.set" }
func (RepoPush) ActionName() string             { return "repo.push" }
func (RepoManifest) ActionName() string         { return "repo.manifest" }
func (IssueCreate) ActionName() string          { return "issue.create" }
func (IssueEdit) ActionName() string            { return "issue.edit" }
func (IssueClose) ActionName() string           { return "issue.close" }
func (IssueReopen) ActionName() string          { return "issue.reopen" }
func (IssueComment) ActionName() string         { return "issue.comment" }
func (LabelCreate) ActionName() string          { return "label.create" }
func (LabelDelete) ActionName() string          { return "label.delete" }
func (PullCreate) ActionName() string           { return "pr.create" }
func (PullUpdate) ActionName() string           { return "pr.update" }
func (PullClose) ActionName() string            { return "pr.close" }
func (PullReopen) ActionName() string           { return "pr.reopen" }
func (PullReview) ActionName() string           { return "pr.review" }
func (PullMerge) ActionName() string            { return "pr.merge" }
func (OrgCreate) ActionName() string            { return "org.create" }
func (OrgUpdate) ActionName() string            { return "org.update" }
func (OrgDelete) ActionName() string            { return "org.delete" }
func (OrgMemberRemove) ActionName() string      { return "org.member.remove" }
func (TeamCreate) ActionName() string           { return "team.create" }
func (TeamEdit) ActionName() string             { return "team.edit" }
func (TeamDelete) ActionName() string           { return "team.delete" }
func (TeamMemberAdd) ActionName() string        { return "team.member.add" }
func (TeamMemberRemove) ActionName() string     { return "team.member.remove" }
func (TeamRepoAdd) ActionName() string          { return "team.repo.add" }
func (TeamRepoRemove) ActionName() string       { return "team.repo.remove" }
func (StatusCreate) ActionName() string         { return "status.create" }
func (BranchProtect) ActionName() string        { return "branch.protect" }
func (BranchUnprotect) ActionName() string      { return "branch.unprotect" }
func (MilestoneCreate) ActionName() string      { return "milestone.create" }
func (MilestoneEdit) ActionName() string        { return "milestone.edit" }
func (MilestoneDelete) ActionName() string      { return "milestone.delete" }
func (CommentEdit) ActionName() string          { return "comment.edit" }
func (CommentDelete) ActionName() string        { return "comment.delete" }
func (ReactionAdd) ActionName() string          { return "reaction.add" }
func (ReactionRemove) ActionName() string       { return "reaction.remove" }
func (IssuePinAction) ActionName() string       { return "issue.pin" }
func (IssueUnpin) ActionName() string           { return "issue.unpin" }
func (IssueSubscribeAction) ActionName() string { return "issue.subscribe" }
func (IssueUnsubscribe) ActionName() string     { return "issue.unsubscribe" }
