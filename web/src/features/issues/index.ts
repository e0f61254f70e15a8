// The issues feature's public entry point. Pull requests are issues too, so
// the pulls feature builds its pages from these parts; governance and search
// reuse the Markdown editor and the state badge.
export { IssueActions, IssueLabels, issueHref } from './IssueActions'
export { type Comment, type CommentParts, type Issue, type IssueEdit, type IssueParts, type Label, useComments, useInvalidateIssues, useIssueById } from './api'
export { Assignees, EditableTitle, OpeningPost, useEditRights } from './OpeningPost'
export { IssueRow } from './IssueRow'
export { issueFilterOf, ListFilterBar, StateTabs, useListFilters } from './ListFilters'
export { useIssues } from './api'
export { Body, CommentCard, MarkdownEditor, StateBadge, stateKind, UserLink } from './CommentCard'
export { MilestonePicker, PinButton, SubscribeButton } from './Sidebar'
export { ReactionBar } from './ReactionBar'
export { Timeline, TimelineEntry } from './Timeline'
export { type TimelineEvent, useTimeline } from './tracker'
