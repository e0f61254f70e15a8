import type { MouseEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { usePosts } from '@/features/blog'
import { repoHref, useRepoSearch } from '@/lib/forge/api'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { type PickerTarget, RepoPicker } from './RepoPicker'
import { RecentActivity, Team, TopContributors } from './HomeSections'
import './home.css'
import { numberFormat } from '@/lib/intl'

// An action with a picker asks which repository first (RepoPicker), then opens its form.
// The picker's state is Home's `new` parameter, so these actions are links too:
// opened in a new tab or copied, they land on Home with the picker open.
const QUICK_ACTIONS = [
  { key: 'createRepository', to: '/new' },
  { key: 'reportIssue', picker: 'issues' },
  { key: 'newPullRequest', picker: 'pulls' },
  { key: 'createProposal', to: '/governance/new' },
] as const

export default function HomeScreen() {
  const { t } = useTranslation('home')
  useDocumentTitle(t('title'))
  return (
    <div className="stack home">
      <section className="hero">
        <h1>{t('hero.title')}</h1>
        <p className="lead">{t('hero.lead')}</p>
        <div className="button-row">
          <PreloadLink className="btn btn-primary btn-lg" to="/explore">
            {t('hero.explore')}
          </PreloadLink>
          <PreloadLink className="btn btn-outline btn-lg" to="/whitepaper">
            {t('hero.whitepaper')}
          </PreloadLink>
        </div>
      </section>
      <QuickActions />
      <div className="home-columns">
        <Section id="trending" title={t('trending.title')}>
          <Trending />
        </Section>
        <Section id="contributors" title={t('contributors.title')}>
          <TopContributors />
        </Section>
        <Section id="news" title={t('news.title')}>
          <LatestNews />
        </Section>
        <Section id="activity" title={t('activity.title')}>
          <RecentActivity />
        </Section>
      </div>
      <Card as="section" aria-labelledby="team-title">
        <h2 id="team-title">{t('team.title')}</h2>
        <p>{t('team.text')}</p>
        <Team />
        <PreloadLink to="/team">{t('team.link')}</PreloadLink>
      </Card>
    </div>
  )
}

function QuickActions() {
  const { t } = useTranslation('home')
  const [param, setPicker] = useUrlParam('new')
  const picker = isPickerTarget(param) ? param : null
  return (
    <section aria-labelledby="quick-title">
      <h2 id="quick-title">{t('quick.title')}</h2>
      <ul className="grid plain-list">
        {QUICK_ACTIONS.map((a) => {
          const body = (
            <>
              <strong>{t(`quick.${a.key}`)}</strong>
              <span className="muted">{t(`quick.${a.key}Hint`)}</span>
            </>
          )
          return (
            <li key={a.key}>
              {'picker' in a ? (
                <a className="card card-md card-link" href={`/?new=${a.picker}`} aria-haspopup="dialog" onClick={(e) => openInPlace(e) && setPicker(a.picker)}>
                  {body}
                </a>
              ) : (
                <PreloadLink className="card card-md card-link" to={a.to}>
                  {body}
                </PreloadLink>
              )}
            </li>
          )
        })}
      </ul>
      {picker && <RepoPicker target={picker} onClose={() => setPicker('')} />}
    </section>
  )
}

function isPickerTarget(value: string): value is PickerTarget {
  return value === 'issues' || value === 'pulls'
}

/** A plain click opens the picker on this page; a click with a modifier key is left to the browser (a new tab or window). */
function openInPlace(e: MouseEvent) {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return false
  e.preventDefault()
  return true
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Card as="section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </Card>
  )
}

function LatestNews() {
  const { t } = useTranslation('home')
  const posts = usePosts()
  return (
    <QueryState query={posts}>
      {(list) =>
        list.length === 0 ? (
          <EmptyState message={t('news.empty')} />
        ) : (
          <>
            <ul className="news-list">
              {list.slice(0, 3).map((p) => (
                <li key={p.slug}>
                  <PreloadLink to={`/blog/${p.slug}`}>{p.title}</PreloadLink>
                  <span className="muted"> · {p.date}</span>
                </li>
              ))}
            </ul>
            <PreloadLink to="/blog">{t('news.all')}</PreloadLink>
          </>
        )
      }
    </QueryState>
  )
}

const TRENDING = 6

/** The most starred repositories on this node (GET /api/v1/repos/search?sort=stars). */
function Trending() {
  const { t, i18n } = useTranslation('home')
  const repos = useRepoSearch('', 'stars', 1, TRENDING)
  return (
    <QueryState query={repos}>
      {({ items }) =>
        items.length === 0 ? (
          <EmptyState message={t('trending.empty')} action={<PreloadLink to="/new">{t('trending.create')}</PreloadLink>} />
        ) : (
          <>
            <ol className="trending-list">
              {items.map((r) => (
                <li key={r.id}>
                  <PreloadLink to={repoHref.home(r.owner.login, r.name)}>{r.full_name}</PreloadLink>
                  <span className="muted"> · {t('trending.stars', { count: r.stars_count, n: numberFormat(i18n.resolvedLanguage).format(r.stars_count) })}</span>
                  {r.description && <p className="muted trending-description">{r.description}</p>}
                </li>
              ))}
            </ol>
            <PreloadLink to="/explore?sort=stars">{t('trending.all')}</PreloadLink>
          </>
        )
      }
    </QueryState>
  )
}
