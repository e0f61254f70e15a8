import { useLayoutEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * Shows HTML that the server rendered from Markdown and sanitized with
 * bluemonday; the client never renders untrusted Markdown itself.
 *
 * A code block scrolls sideways when its lines are long, so each one is a
 * named region in the tab order: keyboard users can reach and scroll it.
 */
export function Markdown({ html }: { html: string }) {
  const { t } = useTranslation()
  const ref = useRef<HTMLDivElement>(null)
  const label = t('markdown.codeBlock')
  useLayoutEffect(() => {
    for (const pre of ref.current?.querySelectorAll('pre') ?? []) {
      pre.tabIndex = 0
      pre.setAttribute('role', 'region')
      pre.setAttribute('aria-label', label)
    }
  }, [html, label])
  return <div ref={ref} className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
}
