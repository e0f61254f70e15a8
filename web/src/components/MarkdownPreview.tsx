import { useTranslation } from 'react-i18next'
import { useRenderedMarkdown } from '@/lib/markdown'
import { Markdown } from './Markdown'
import { QueryState } from './QueryState'

/** A preview of Markdown being written, rendered by the server as it will be saved. */
export function MarkdownPreview({ text }: { text: string }) {
  const { t } = useTranslation()
  const html = useRenderedMarkdown(text)
  if (!text.trim()) return <p className="muted preview">{t('markdown.nothing')}</p>
  return <div className="preview">{<QueryState query={html}>{(h) => <Markdown html={h} />}</QueryState>}</div>
}
