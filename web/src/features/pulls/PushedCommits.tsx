import { useTranslation } from 'react-i18next'
import { PreloadLink } from '@/components/PreloadLink'
import { type TimelineEvent, UserLink } from '@/features/issues'
import { type Repository, repoHref } from '@/lib/forge/api'
import { shortSha, useForgeFormat } from '@/lib/forge/format'

/** The body of Gitea's pull_push event. */
interface PushContent {
  is_force_push: boolean
  commit_ids: string[]
}

function pushContent(body: string): PushContent {
  try {
    const c = JSON.parse(body) as Partial<PushContent>
    return { is_force_push: Boolean(c.is_force_push), commit_ids: Array.isArray(c.commit_ids) ? c.commit_ids : [] }
  } catch {
    return { is_force_push: false, commit_ids: [] }
  }
}

/**
 * A push to the head branch in the conversation, as on GitHub: "pushed 2
 * commits" with each commit's short id and subject, or a forced push from
 * one head to another.
 */
export function PushedCommits({ repo, event }: { repo: Repository; event: TimelineEvent }) {
  const { t } = useTranslation('pulls')
  const fmt = useForgeFormat()
  const content = pushContent(event.body)
  const o = repo.owner.login
  const link = (sha: string) => (
    <PreloadLink className="mono" to={repoHref.commit(o, repo.name, sha)}>
      {shortSha(sha)}
    </PreloadLink>
  )
  const subjects = new Map((event.commits ?? []).map((c) => [c.sha, c.subject]))
  const forced = content.is_force_push
  const [from, to] = content.commit_ids.length > 1 ? content.commit_ids : ['', content.commit_ids[0] ?? '']
  return (
    <div className="timeline-event timeline-push muted">
      <p>
        <strong>
          <UserLink user={event.user} />
        </strong>{' '}
        {forced ? (
          <>
            <span>{t('push.forced')}</span> {from && <>{link(from)} → </>}
            {to && link(to)}
          </>
        ) : (
          <span>{t('push.pushed', { count: content.commit_ids.length })}</span>
        )}{' '}
        <time dateTime={event.created_at} title={fmt.exact(event.created_at)}>
          {fmt.ago(event.created_at)}
        </time>
      </p>
      {!forced && content.commit_ids.length > 0 && (
        <ul className="plain-list pushed-commits" aria-label={t('push.commits')}>
          {content.commit_ids.map((sha) => (
            <li key={sha}>
              {link(sha)} {subjects.get(sha) && <span className="pushed-subject">{subjects.get(sha)}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
