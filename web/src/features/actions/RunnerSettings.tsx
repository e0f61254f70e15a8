import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { QueryState } from '@/components/QueryState'
import type { Repository } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { errorText } from '@/lib/http'
import { type Runner, useDeleteRunner, useRegistrationToken, useRunners } from './api'

/** The runners registered to the repository, and a registration token (shown once) to add one. */
export function RunnerSettings({ repo }: { repo: Repository }) {
  const { t } = useTranslation('actions')
  const id = useId()
  const runners = useRunners(repo.owner.login, repo.name)
  return (
    <section className="action-settings-part" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('runners.heading')}</h3>
      <QueryState query={runners}>
        {(list) => (list.length === 0 ? <EmptyState message={t('runners.empty')} /> : <RunnerTable repo={repo} runners={list} />)}
      </QueryState>
      <RegistrationToken repo={repo} />
    </section>
  )
}

function RunnerTable({ repo, runners }: { repo: Repository; runners: Runner[] }) {
  const { t } = useTranslation('actions')
  const fmt = useForgeFormat()
  const remove = useDeleteRunner(repo.owner.login, repo.name)
  return (
    <>
      <table className="action-table">
        <caption className="action-caption">{t('runners.heading')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('runners.name')}</th>
            <th scope="col">{t('runners.status')}</th>
            <th scope="col">{t('runners.labels')}</th>
            <th scope="col">{t('runners.lastOnline')}</th>
            <th scope="col">
              <span className="action-caption">{t('runners.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {runners.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.name}</th>
              <td>
                <span className={`badge runner-${r.status}`}>{t(`runners.state.${r.status}`, { defaultValue: r.status })}</span>
              </td>
              <td>
                {r.labels.map((l) => (
                  <span key={l.name} className="badge">
                    {l.name}
                  </span>
                ))}
              </td>
              <td>{r.last_online ? <time dateTime={r.last_online}>{fmt.ago(r.last_online)}</time> : t('runners.never')}</td>
              <td>
                <Button
                  size="sm"
                  variant="danger"
                  disabled={remove.isPending}
                  aria-label={t('runners.deleteNamed', { name: r.name })}
                  onClick={() => {
                    if (window.confirm(t('runners.confirmDelete', { name: r.name }))) remove.mutate(r.id)
                  }}
                >
                  {t('runners.delete')}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {remove.isError && (
        <p role="alert" className="field-error">
          {errorText(remove.error)}
        </p>
      )}
    </>
  )
}

function RegistrationToken({ repo }: { repo: Repository }) {
  const { t } = useTranslation('actions')
  const id = useId()
  const create = useRegistrationToken(repo.owner.login, repo.name)
  const [copied, setCopied] = useState(false)
  const token = create.data?.token
  const command = token ? `dforge runner register --url ${window.location.origin} --token ${token} --labels ubuntu-latest:host` : ''
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command)
      setCopied(true)
    } catch {
      setCopied(false) // the command stays on screen to copy by hand
    }
  }
  return (
    <div className="action-token">
      <Button
        size="sm"
        variant="outline"
        disabled={create.isPending}
        onClick={() => {
          setCopied(false)
          create.mutate()
        }}
      >
        {create.isPending ? t('runners.creatingToken') : t('runners.createToken')}
      </Button>
      {create.isError && (
        <p role="alert" className="field-error">
          {errorText(create.error)}
        </p>
      )}
      {token && (
        <div className="action-token-shown" role="status">
          <p>{t('runners.tokenOnce')}</p>
          <figure className="action-command" aria-labelledby={`${id}-cmd`}>
            <figcaption id={`${id}-cmd`}>{t('runners.command')}</figcaption>
            <pre>
              <code>{command}</code>
            </pre>
          </figure>
          <Button size="sm" variant="secondary" onClick={() => void copy()}>
            {copied ? t('runners.copied') : t('runners.copy')}
          </Button>
        </div>
      )}
    </div>
  )
}
