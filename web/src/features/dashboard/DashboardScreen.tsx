import { type ReactNode, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type DashIssue, type DashPull, type DashRepo, type DashThread, type Section, SEE_ALL_PAGE, localPath, useDashboard, useSeeAll } from './api'
import './dashboard.css'

/** What needs the signed-in user: review requests, assignments, their pull requests with checks, their repositories, notifications. */
export default function DashboardScreen() {
  const { t } = useTranslation('dashboard')
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={user ? t('lead') : undefined} />
      {user ? <Sections /> : <SignInNotice message={t('signedOut')} />}
    </div>
  )
}

function Sections() {
  const query = useDashboard()
  return (
    <QueryState query={query}>
      {(d) => (
        <div className="dashboard-grid">
          <IssueSection name="reviewRequests" section={d.review_requests} />
          <IssueSection name="assigned" section={d.assigned} />
          <PullSection section={d.pulls} />
          <RepoSection section={d.repositories} />
          <NotificationSection section={d.notifications} />
        </div>
      )}
    </QueryState>
  )
}

/**
 * A section: its heading with the total, the first items (or its empty
 * state), and, when there are more, "Show all" that pages through the
 * section's own query in place.
 */
function SectionCard<T>({
  name,
  section,
  row,
  more,
}: {
  name: string
  section: Section<T>
  row: (item: T) => ReactNode
  /** Replaces the in-place "show all" (the notifications have their own page). */
  more?: ReactNode
}) {
  const { t } = useTranslation('dashboard')
  const [all, setAll] = useState(false)
  const headingId = useId()
  const title = t(`sections.${name}.title`)
  const hasMore = section.total_count > section.items.length
  return (
    <Card as="section" className="dashboard-section" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {title} <span className="dashboard-count">{t('count', { count: section.total_count })}</span>
      </h2>
      {section.items.length === 0 ? (
        <EmptyState message={t(`sections.${name}.empty`)} />
      ) : all ? (
        <AllItems seeAll={section.see_all} label={title} row={row} />
      ) : (
        <ul className="dashboard-list">{section.items.map(row)}</ul>
      )}
      {more ??
        (hasMore && (
          <Button size="sm" variant="outline" aria-expanded={all} onClick={() => setAll(!all)}>
            {all ? t('showFewer') : t('showAll', { count: section.total_count })}
          </Button>
        ))}
    </Card>
  )
}

function AllItems<T>({ seeAll, label, row }: { seeAll: string; label: string; row: (item: T) => ReactNode }) {
  const { t } = useTranslation('dashboard')
  const [page, setPage] = useState(1)
  const query = useSeeAll<T>(seeAll, page)
  return (
    <Paged query={query} page={page} onPage={setPage} limit={SEE_ALL_PAGE} label={label} empty={t('nothing')}>
      {(items) => <ul className="dashboard-list">{items.map(row)}</ul>}
    </Paged>
  )
}

function IssueSection({ name, section }: { name: 'reviewRequests' | 'assigned'; section: Section<DashIssue> }) {
  return <SectionCard name={name} section={section} row={(is) => <IssueRow key={is.id} issue={is} />} />
}

function IssueRow({ issue, extra }: { issue: DashIssue; extra?: ReactNode }) {
  const { t, i18n } = useTranslation('dashboard')
  return (
    <li className="dashboard-row">
      <div>
        <span className="dashboard-kind">{issue.pull_request ? t('kind.pull') : t('kind.issue')}</span>{' '}
        <PreloadLink to={localPath(issue.html_url)}>{issue.title}</PreloadLink>
        <div className="dashboard-meta">
          {issue.repository.full_name}#{issue.number} · {t('by', { user: issue.user.login })} ·{' '}
          {t('updated', { when: new Date(issue.updated_at).toLocaleString(i18n.language) })}
        </div>
      </div>
      {extra}
    </li>
  )
}

function PullSection({ section }: { section: Section<DashPull> }) {
  return <SectionCard name="pulls" section={section} row={(pr) => <IssueRow key={pr.id} issue={pr} extra={<PullState pull={pr} />} />} />
}

/** A pull request's checks and approvals (a "see all" page, from the issue search, has neither). */
function PullState({ pull }: { pull: DashPull }) {
  const { t } = useTranslation('dashboard')
  if (!pull.checks) return null
  return (
    <span className="dashboard-pull-state">
      <Checks pull={pull} />
      <span className="dashboard-approvals">{t('approvals', { count: pull.approvals })}</span>
    </span>
  )
}

const CHECK_ICONS: Record<string, string> = { success: '✓', failure: '✗', error: '✗', warning: '!', pending: '●' }

/** The combined status of a pull request's head, with each check's state in its label. */
function Checks({ pull }: { pull: DashPull }) {
  const { t } = useTranslation('dashboard')
  const state = pull.checks.state || 'none'
  const label = t(`checks.${state}`)
  const detail = pull.checks.statuses.map((s) => `${s.context}: ${t(`checks.${s.status || 'none'}`)}`).join(', ')
  return (
    <span className={`dashboard-checks status-${state}`} title={detail || label}>
      {state !== 'none' && <span aria-hidden="true">{CHECK_ICONS[state]} </span>}
      {label}
      {pull.checks.total_count > 0 && <span className="muted"> ({t('checkCount', { count: pull.checks.total_count })})</span>}
    </span>
  )
}

function RepoSection({ section }: { section: Section<DashRepo> }) {
  const { t, i18n } = useTranslation('dashboard')
  return (
    <SectionCard
      name="repositories"
      section={section}
      row={(repo) => (
        <li key={repo.id} className="dashboard-row">
          <div>
            <PreloadLink to={localPath(repo.html_url)}>{repo.full_name}</PreloadLink>
            {repo.private && <span className="dashboard-private"> {t('private')}</span>}
            {repo.description && <div className="dashboard-description">{repo.description}</div>}
            <div className="dashboard-meta">
              {t('repoCounts', { issues: repo.open_issues_count, pulls: repo.open_pr_counter, stars: repo.stars_count })} ·{' '}
              {t('updated', { when: new Date(repo.updated_at).toLocaleString(i18n.language) })}
            </div>
          </div>
        </li>
      )}
    />
  )
}

function NotificationSection({ section }: { section: Section<DashThread> }) {
  const { t, i18n } = useTranslation('dashboard')
  return (
    <SectionCard
      name="notifications"
      section={section}
      more={
        <PreloadLink to="/notifications" className="dashboard-more">
          {t('openNotifications')}
        </PreloadLink>
      }
      row={(th) => (
        <li key={th.id} className={`dashboard-row${th.unread ? ' unread' : ''}`}>
          <div>
            <span className="dashboard-kind">{t(`thread.${th.subject.type}`, { defaultValue: th.subject.type })}</span>{' '}
            <PreloadLink to={localPath(th.subject.latest_comment_html_url || th.subject.html_url)}>{th.subject.title}</PreloadLink>
            <div className="dashboard-meta">
              {th.repository && <>{th.repository.full_name} · </>}
              {t('updated', { when: new Date(th.updated_at).toLocaleString(i18n.language) })}
            </div>
          </div>
        </li>
      )}
    />
  )
}
