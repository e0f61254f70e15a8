import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { QueryState } from '@/components/QueryState'
import { type SessionInfo, useRevokeSession, useSessions } from './api'
import { ErrorAlert, Section, useFormatDate } from './Section'

/** Where the user is signed in; any session but this one can be ended here. */
export function SessionsSection() {
  const { t } = useTranslation('settings')
  const query = useSessions()
  return (
    <Section title={t('security.sessions.title')}>
      <p className="muted">{t('security.sessions.description')}</p>
      <QueryState query={query}>
        {(sessions) =>
          sessions.length === 0 ? (
            <EmptyState message={t('security.sessions.empty')} />
          ) : (
            <ul className="settings-list" aria-label={t('security.sessions.title')}>
              {sessions.map((s) => (
                <SessionRow key={s.id} session={s} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </Section>
  )
}

function SessionRow({ session }: { session: SessionInfo }) {
  const { t } = useTranslation('settings')
  const formatDate = useFormatDate()
  const revoke = useRevokeSession(session.id)
  const agent = session.userAgent || t('security.sessions.unknownAgent')
  return (
    <li className="settings-list-item" aria-current={session.current || undefined}>
      <div>
        <strong>{agent}</strong> {session.current && <span className="badge">{t('security.sessions.current')}</span>}
        <div className="muted">
          {t('security.sessions.meta', { ip: session.ip || '—', created: formatDate(session.createdAt), seen: formatDate(session.lastSeenAt) })}
        </div>
      </div>
      {session.current ? (
        <span className="muted">{t('security.sessions.currentHint')}</span>
      ) : (
        <Button size="sm" variant="outline" aria-label={t('security.sessions.revokeNamed', { agent })} onClick={() => revoke.mutate()} disabled={revoke.isPending}>
          {t('security.sessions.revoke')}
        </Button>
      )}
      {revoke.isError && <ErrorAlert error={revoke.error} />}
    </li>
  )
}
