import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Dialog } from '@/components/Dialog'
import { EmptyState } from '@/components/EmptyState'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { Input } from '@/components/Input'
import { repoHref, type Repository } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { type Listing, useAdminRepos, useInstall } from './api'

/**
 * Picks one of the user's public repositories where they are an
 * administrator and installs the listing there in one step (its webhook
 * and the chain's record), showing the outcome.
 */
export function InstallDialog({ listing, onClose }: { listing: Listing; onClose: () => void }) {
  const { t } = useTranslation('marketplace')
  const repos = useAdminRepos(true)
  const install = useInstall(listing.id)
  const [picked, setPicked] = useState<number | null>(null)
  const groupId = useId()
  const submit = (e: FormEvent, list: Repository[]) => {
    e.preventDefault()
    const repo = list.find((r) => r.id === picked)
    if (repo) install.mutate(repo)
  }
  const done = install.data
  return (
    <Dialog title={t('install.title', { name: listing.name })} description={t('install.description')} closeLabel={t('form.close')} onClose={onClose}>
      {done && install.variables ? (
        <div role="status" className="marketplace-installed">
          <p>{t('install.done', { repo: install.variables.full_name })}</p>
          <p>
            <PreloadLink to={repoHref.section(install.variables.owner.login, install.variables.name, 'settings/hooks')}>{t('install.seeHooks')}</PreloadLink>
          </p>
          <Button onClick={onClose}>{t('form.close')}</Button>
        </div>
      ) : (
        <QueryState query={repos}>
          {(list) =>
            list.length === 0 ? (
              <EmptyState message={t('install.noRepos')} />
            ) : (
              <form onSubmit={(e) => submit(e, list)}>
                <fieldset className="marketplace-repos" aria-describedby={`${groupId}-help`}>
                  <legend>{t('install.repo')}</legend>
                  <p id={`${groupId}-help`} className="muted small">
                    {t('install.repoHelp')}
                  </p>
                  {list.map((r) => (
                    <label key={r.id} className="checkbox">
                      <Input type="radio" name={groupId} value={r.id} checked={picked === r.id} onChange={() => setPicked(r.id)} /> {r.full_name}
                    </label>
                  ))}
                </fieldset>
                {install.isError && (
                  <p className="alert-error" role="alert">
                    {t('install.failed', { error: errorText(install.error) })}
                  </p>
                )}
                <div className="form-actions">
                  <Button type="submit" disabled={picked === null || install.isPending}>
                    {install.isPending ? t('install.pending') : t('install.submit')}
                  </Button>
                  <Button variant="ghost" onClick={onClose}>
                    {t('form.cancel')}
                  </Button>
                </div>
              </form>
            )
          }
        </QueryState>
      )}
    </Dialog>
  )
}
