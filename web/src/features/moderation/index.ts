// The moderation feature's public entry point: the Report action and the
// notice shown in place of content this node's moderators hid.
export { ReportButton } from './ReportButton'
export { HiddenContent, HiddenNotice } from './HiddenNotice'
