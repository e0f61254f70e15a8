import { useState, type ReactNode } from 'react'
import type { UseQueryResult } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { Paged } from '@/components/Lists'
import { QueryState } from '@/components/QueryState'
import { errorText } from '@/lib/http'
import { PAGE_SIZE, useAdminSessions, useAdminTokens, useAdminUsers, useRevoke, type AdminUser } from './api'

/** The node's accounts; one at a time opens to its sessions and tokens, each revocable. */
export function UsersTab() {
  const { t, i18n } = useTranslation('admin')
  const [page, setPage] = useState(1)
  const [open, setOpen] = useState<string | null>(null)
  const query = useAdminUsers(page)
  return (
    <Paged query={query} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('users.title')} empty={t('users.empty')}>
      {(users) => (
        <table className="data admin-table" aria-label={t('users.title')}>
          <thead>
            <tr>
              <th scope="col">{t('users.login')}</th>
              <th scope="col">{t('users.email')}</th>
              <th scope="col">{t('users.created')}</th>
              <th scope="col">{t('users.access')}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <UserRow key={u.wallet_address} user={u} open={open === u.login} onToggle={() => setOpen(open === u.login ? null : u.login)} lang={i18n.language} />
            ))}
          </tbody>
        </table>
      )}
    </Paged>
  )
}

function UserRow({ user, open, onToggle, lang }: { user: AdminUser; open: boolean; onToggle: () => void; lang: string }) {
  const { t } = useTranslation('admin')
  const panel = `admin-user-${user.id}`
  return (
    <>
      <tr>
        <td>
          <strong>{user.login}</strong> {user.full_name && <span className="muted">{user.full_name}</span>}{' '}
          {user.is_admin && <span className="badge">{t('users.admin')}</span>}
        </td>
        <td>{user.email || <span className="muted">{t('users.noEmail')}</span>}</td>
        <td>{user.created ? new Date(user.created).toLocaleDateString(lang) : ''}</td>
        <td>
          <Button size="sm" variant="outline" aria-expanded={open} aria-controls={panel} onClick={onToggle}>
            {open ? t('users.hideAccess') : t('users.showAccess', { login: user.login })}
          </Button>
        </td>
      </tr>
      {open && (
        <tr id={panel}>
          <td colSpan={4}>
            <div className="admin-access">
              <Sessions login={user.login} lang={lang} />
              <Tokens login={user.login} lang={lang} />
            </div>
          </td>
        </tr>
      )}
    </>
  )
}

function Sessions({ login, lang }: { login: string; lang: string }) {
  const { t } = useTranslation('admin')
  return (
    <Revocable
      kind="sessions"
      login={login}
      query={useAdminSessions(login)}
      label={(s) => (
        <>
          {s.userAgent || t('sessions.unknownAgent')} · {s.ip || '—'} · {t('sessions.lastSeen', { date: new Date(s.lastSeenAt).toLocaleString(lang) })}
          {s.current && <span className="badge">{t('sessions.current')}</span>}
        </>
      )}
      confirm={() => t('sessions.confirm', { login })}
    />
  )
}

function Tokens({ login, lang }: { login: string; lang: string }) {
  const { t } = useTranslation('admin')
  return (
    <Revocable
      kind="tokens"
      login={login}
      query={useAdminTokens(login)}
      label={(tk) => (
        <>
          <strong>{tk.name}</strong> · …{tk.token_last_eight} · {tk.scopes.join(', ')} · {new Date(tk.created_at).toLocaleDateString(lang)}
        </>
      )}
      confirm={(tk) => t('tokens.confirm', { name: tk.name, login })}
    />
  )
}

/** A user's sessions or tokens, each with a revoke button behind a confirmation. */
function Revocable<T extends { id: number }>({
  kind,
  login,
  query,
  label,
  confirm,
}: {
  kind: 'sessions' | 'tokens'
  login: string
  query: UseQueryResult<T[]>
  label: (item: T) => ReactNode
  confirm: (item: T) => string
}) {
  const { t } = useTranslation('admin')
  const revoke = useRevoke(kind, login)
  return (
    <section aria-label={t(`${kind}.title`, { login })}>
      <h3>{t(`${kind}.title`, { login })}</h3>
      <QueryState query={query}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState message={t(`${kind}.empty`)} />
          ) : (
            <ul className="plain-list admin-list">
              {list.map((item) => (
                <li key={item.id}>
                  <span>{label(item)}</span>
                  <Button
                    size="sm"
                    variant="danger"
                    disabled={revoke.isPending}
                    onClick={() => {
                      if (window.confirm(confirm(item))) revoke.mutate(item.id)
                    }}
                  >
                    {t(`${kind}.revoke`)}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {revoke.isError && <p role="alert" className="field-error">{errorText(revoke.error)}</p>}
    </section>
  )
}
