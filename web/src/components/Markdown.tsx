/**
 * Shows HTML that the server rendered from Markdown and sanitized with
 * bluemonday; the client never renders untrusted Markdown itself.
 */
export function Markdown({ html }: { html: string }) {
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
}
