import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundCard } from '@/components/NotFoundCard'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type Listing, useDelete, useListing } from './api'
import { InstallDialog } from './InstallDialog'

/** One listing: what it sends where, who published it, how many use it, and Install. */
export function ListingDetail({ id }: { id: string }) {
  const { t } = useTranslation('marketplace')
  const listing = useListing(id)
  const missing = listing.error instanceof NotFoundError
  useDocumentTitle(listing.data?.name ?? t(missing ? 'notFound.title' : 'title'))
  if (missing) {
    return (
      <NotFoundCard
        title={t('notFound.title')}
        description={t('notFound.description', { id })}
        links={[
          { to: '/marketplace', label: t('back') },
          { to: '/search', label: t('notFound.search', { ns: 'common' }) },
        ]}
      />
    )
  }
  return (
    <div className="page marketplace">
      <p>
        <PreloadLink to="/marketplace">{t('back')}</PreloadLink>
      </p>
      <QueryState query={listing}>{(l) => <Detail listing={l} />}</QueryState>
    </div>
  )
}

function Detail({ listing: l }: { listing: Listing }) {
  const { t } = useTranslation('marketplace')
  const me = useSignedInUser()
  const [installing, setInstalling] = useState(false)
  const mine = me !== null && me.username.toLowerCase() === l.publisher.login.toLowerCase()
  return (
    <>
      <PageHeader
        title={l.name}
        lead={
          <>
            {t('installs', { count: l.installs })} · {t('by')}{' '}
            <PreloadLink to={`/user/${encodeURIComponent(l.publisher.login)}`}>{l.publisher.login}</PreloadLink>
          </>
        }
        actions={me ? <Button onClick={() => setInstalling(true)}>{t('install.open')}</Button> : <p className="muted">{t('signInToInstall')}</p>}
      />
      <Card as="section" aria-labelledby="listing-about">
        <h2 id="listing-about">{t('detail.about')}</h2>
        {l.description ? <p className="marketplace-description">{l.description}</p> : <p className="muted">{t('detail.noDescription')}</p>}
        <dl className="marketplace-facts">
          <dt>{t('detail.events')}</dt>
          <dd>
            <ul className="marketplace-events">
              {l.events.map((e) => (
                <li key={e}>
                  {t(`events.${e}`, { defaultValue: e })} <code>{e}</code>
                </li>
              ))}
            </ul>
          </dd>
          <dt>{t('detail.urlTemplate')}</dt>
          <dd>
            <code className="marketplace-url">{l.url_template}</code>
            <p className="muted small">{t('detail.urlHelp')}</p>
          </dd>
          {l.homepage && (
            <>
              <dt>{t('homepage')}</dt>
              <dd>
                <a href={l.homepage} rel="noopener noreferrer nofollow">
                  {l.homepage}
                </a>
              </dd>
            </>
          )}
        </dl>
      </Card>
      {mine && <DeleteListing listing={l} />}
      {installing && <InstallDialog listing={l} onClose={() => setInstalling(false)} />}
    </>
  )
}

/** The publisher's delete, asked twice; installs keep their webhooks. */
function DeleteListing({ listing }: { listing: Listing }) {
  const { t } = useTranslation('marketplace')
  const del = useDelete(listing.id)
  const [confirming, setConfirming] = useState(false)
  if (del.isSuccess) {
    return (
      <p role="status">
        {t('delete.done')} <PreloadLink to="/marketplace">{t('back')}</PreloadLink>
      </p>
    )
  }
  return (
    <Card as="section" aria-labelledby="listing-delete" className="marketplace-danger">
      <h2 id="listing-delete">{t('delete.title')}</h2>
      <p className="muted">{t('delete.help')}</p>
      {confirming ? (
        <div className="form-actions">
          <Button variant="danger" disabled={del.isPending} onClick={() => del.mutate()}>
            {t('delete.confirm')}
          </Button>
          <Button variant="ghost" onClick={() => setConfirming(false)}>
            {t('form.cancel')}
          </Button>
        </div>
      ) : (
        <Button variant="outline" onClick={() => setConfirming(true)}>
          {t('delete.open')}
        </Button>
      )}
      {del.isError && (
        <p className="alert-error" role="alert">
          {errorText(del.error)}
        </p>
      )}
    </Card>
  )
}
