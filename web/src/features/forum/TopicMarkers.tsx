import { useTranslation } from 'react-i18next'
import { QueryState } from '@/components/QueryState'
import { UserLink } from '@/features/issues'
import { useForgeFormat } from '@/lib/forge/format'
import { type TopicSummary, useRevisions } from './api'

/** A topic's pinned, locked and answered badges. */
export function TopicMarkers({ topic }: { topic: Pick<TopicSummary, 'pinned' | 'locked' | 'answered'> }) {
  const { t } = useTranslation('forum')
  return (
    <span className="forum-markers">
      {topic.pinned && <span className="badge forum-pinned">{t('labels.pinned')}</span>}
      {topic.locked && <span className="badge forum-locked">{t('labels.locked')}</span>}
      {topic.answered && <span className="badge forum-answered">{t('labels.answered')}</span>}
    </span>
  )
}

/** The texts a topic's or reply's edits replaced, newest first, each with who edited it and when. */
export function RevisionHistory({ kind, id }: { kind: 'topics' | 'posts'; id: number }) {
  const { t } = useTranslation('forum')
  const fmt = useForgeFormat()
  const revisions = useRevisions(kind, id)
  return (
    <section className="forum-history" aria-label={t('history.label')}>
      <QueryState query={revisions}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{t('history.none')}</p>
          ) : (
            <ol className="forum-revisions">
              {list.map((rev) => (
                <li key={rev.n}>
                  <p className="muted">
                    {t('history.entry', { n: rev.n })} · <UserLink user={rev.editor} /> ·{' '}
                    <time dateTime={rev.created_at} title={rev.created_at}>
                      {fmt.ago(rev.created_at)}
                    </time>
                  </p>
                  {rev.title && (
                    <p>
                      <strong>{t('history.oldTitle')}</strong> {rev.title}
                    </p>
                  )}
                  <pre className="forum-old-body">{rev.body}</pre>
                </li>
              ))}
            </ol>
          )
        }
      </QueryState>
    </section>
  )
}
