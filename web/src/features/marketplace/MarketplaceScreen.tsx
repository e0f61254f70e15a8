import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { Input } from '@/components/Input'
import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type Listing, useListings } from './api'
import { ListingDetail } from './ListingDetail'
import { PublishDialog } from './PublishDialog'
import './marketplace.css'

const PAGE_SIZE = 20

/** /marketplace lists the listings; /marketplace/:id shows one. */
export default function MarketplaceScreen() {
  const { params } = useRoute()
  return params.id ? <ListingDetail id={params.id} /> : <ListingsPage />
}

/** The listings, most installed first, with search and, signed in, "Publish a listing". */
function ListingsPage() {
  const { t } = useTranslation('marketplace')
  useDocumentTitle(t('title'))
  const me = useSignedInUser()
  const [q, setQ] = useUrlParam('q')
  const [draft, setDraft] = useState(q)
  const [page, setPage] = useState(1)
  const [publishing, setPublishing] = useState(false)
  const listings = useListings(q, page, PAGE_SIZE)
  const searchId = useId()
  const search = (e: FormEvent) => {
    e.preventDefault()
    setQ(draft.trim())
    setPage(1)
  }
  return (
    <div className="page marketplace">
      <PageHeader
        title={t('title')}
        lead={t('lead')}
        actions={
          me ? (
            <Button onClick={() => setPublishing(true)}>{t('publish')}</Button>
          ) : (
            <p className="muted">{t('signInToPublish')}</p>
          )
        }
      />
      <form role="search" className="marketplace-search" onSubmit={search}>
        <label htmlFor={searchId}>{t('search.label')}</label>
        <Input id={searchId} type="search" value={draft} maxLength={100} placeholder={t('search.placeholder')} onChange={(e) => setDraft(e.target.value)} />
        <Button type="submit" variant="outline">
          {t('search.submit')}
        </Button>
      </form>
      <Paged query={listings} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('title')} empty={q ? t('emptySearch', { q }) : t('empty')}>
        {(items) => (
          <ul className="marketplace-list">
            {items.map((l) => (
              <ListingCard key={l.id} listing={l} />
            ))}
          </ul>
        )}
      </Paged>
      {publishing && <PublishDialog onClose={() => setPublishing(false)} />}
    </div>
  )
}

function ListingCard({ listing: l }: { listing: Listing }) {
  const { t } = useTranslation('marketplace')
  return (
    <li>
      <Card size="sm" className="marketplace-card">
        <h2 className="marketplace-card-title">
          <PreloadLink to={`/marketplace/${l.id}`}>{l.name}</PreloadLink>
        </h2>
        {l.description && <p className="marketplace-card-description">{l.description}</p>}
        <p className="marketplace-meta muted">
          <span>{t('installs', { count: l.installs })}</span>
          <span>
            {t('by')} <PreloadLink to={`/user/${encodeURIComponent(l.publisher.login)}`}>{l.publisher.login}</PreloadLink>
          </span>
          {l.homepage && (
            <a href={l.homepage} rel="noopener noreferrer nofollow" aria-label={`${t('homepage')}: ${l.name}`}>
              {t('homepage')}
            </a>
          )}
        </p>
      </Card>
    </li>
  )
}
