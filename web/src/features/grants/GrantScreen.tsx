import { useTranslation } from 'react-i18next'
import { NotFoundCard } from '@/components/NotFoundCard'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { useLiveChain } from '@/lib/chain/api'
import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useGrant } from './api'
import { GrantCard } from './GrantCard'
import './grants.css'

/** /grants/:id: one grant, its milestones with each reviewer's approval, and its proposal. */
export default function GrantScreen() {
  const { t } = useTranslation('grants')
  const raw = useRoute().params.id ?? ''
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : -1
  useLiveChain()
  const grant = useGrant(id)
  useDocumentTitle(grant.data ? grant.data.title : t('detail.title'))
  if (id < 0 || grant.error instanceof NotFoundError) {
    return (
      <NotFoundCard
        title={t('detail.notFound.title')}
        description={t('detail.notFound.description', { id: raw })}
        links={[
          { to: '/grants', label: t('detail.notFound.list') },
          { to: '/governance', label: t('detail.notFound.governance') },
        ]}
      />
    )
  }
  return (
    <QueryState query={grant}>
      {(g) => (
        <div className="stack">
          <PageHeader
            title={t('detail.title')}
            actions={
              <>
                <PreloadLink className="btn btn-outline btn-md" to={`/governance/${g.id}`}>
                  {t('detail.proposal')}
                </PreloadLink>{' '}
                <PreloadLink className="btn btn-outline btn-md" to="/grants">
                  {t('detail.back')}
                </PreloadLink>
              </>
            }
          />
          <GrantCard grant={g} heading="h2" />
        </div>
      )}
    </QueryState>
  )
}
