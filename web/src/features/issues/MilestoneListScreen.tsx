import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { ProgressBar } from '@/components/ProgressBar'
import { SignerBadge } from '@/components/SignerBadge'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import { Field } from '@/components/Field'
import { type Repository, repoHref } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { RepoPage } from '@/features/repositories'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type Milestone, type MilestoneState, progress, useCreateMilestone, useDeleteMilestone, useEditMilestone, useMilestones } from './tracker'
import './issues.css'

export const MILESTONES_PER_PAGE = 20
const STATES: MilestoneState[] = ['open', 'closed', 'all']

/** A repository's milestones with their progress, at /:owner/:repo/milestones. */
export default function MilestoneListScreen() {
  return <RepoPage section="issues">{(repo) => <MilestoneList repo={repo} />}</RepoPage>
}

function MilestoneList({ repo }: { repo: Repository }) {
  const { t } = useTranslation('tracker')
  const o = repo.owner.login
  const user = useSignedInUser()
  const canEdit = Boolean(user && repo.permissions?.push)
  const [stateParam, setState] = useUrlParam('state', 'open')
  const [pageParam, setPage] = useUrlParam('page', '1')
  const [creating, setCreating] = useState(false)
  const state = (STATES as string[]).includes(stateParam) ? (stateParam as MilestoneState) : 'open'
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const list = useMilestones(o, repo.name, state, page, MILESTONES_PER_PAGE)
  useDocumentTitle(t('milestones.documentTitle', { repo: repo.full_name }))
  return (
    <div className="stack">
      <PageHeader
        title={t('milestones.heading')}
        actions={
          canEdit && !creating ? (
            <Button onClick={() => setCreating(true)}>{t('milestones.new')}</Button>
          ) : (
            <PreloadLink to={repoHref.section(o, repo.name, 'issues')}>{t('milestones.backToIssues')}</PreloadLink>
          )
        }
      />
      {creating && <MilestoneForm repo={repo} onDone={() => setCreating(false)} />}
      <div className="button-row" role="group" aria-label={t('milestones.stateFilter')}>
        {STATES.map((s) => (
          <Button
            key={s}
            size="sm"
            variant={state === s ? 'secondary' : 'ghost'}
            aria-pressed={state === s}
            onClick={() => {
              setState(s)
              setPage('1')
            }}
          >
            {t(`milestones.states.${s}`)}
          </Button>
        ))}
      </div>
      <Paged query={list} page={page} onPage={(p) => setPage(String(p))} limit={MILESTONES_PER_PAGE} label={t('milestones.heading')} empty={t('milestones.empty')}>
        {(items) =>
          items.length === 0 ? (
            <EmptyState message={t('milestones.empty')} />
          ) : (
            <ul className="plain-list stack">
              {items.map((m) => (
                <MilestoneRow key={m.id} repo={repo} milestone={m} canEdit={canEdit} />
              ))}
            </ul>
          )
        }
      </Paged>
    </div>
  )
}

/** A milestone's progress bar with its counts in words. */
export function MilestoneProgress({ milestone: m }: { milestone: Milestone }) {
  const { t } = useTranslation('tracker')
  const total = m.open_issues + m.closed_issues
  const text = t('milestones.progress', { percent: progress(m), open: m.open_issues, closed: m.closed_issues })
  return (
    <div className="milestone-progress">
      <ProgressBar value={m.closed_issues} max={total === 0 ? 1 : total} label={t('milestones.progressLabel', { title: m.title })} valueText={text} />
      <p className="muted">{text}</p>
    </div>
  )
}

/** When a milestone is due, or closed. */
export function MilestoneDates({ milestone: m }: { milestone: Milestone }) {
  const { t } = useTranslation('tracker')
  const fmt = useForgeFormat()
  if (m.state === 'closed' && m.closed_at) return <span>{t('milestones.closedOn', { date: fmt.date(m.closed_at) })}</span>
  if (!m.due_on) return <span>{t('milestones.noDue')}</span>
  const late = new Date(m.due_on).getTime() < Date.now()
  return <span className={late ? 'milestone-late' : undefined}>{t(late ? 'milestones.pastDue' : 'milestones.due', { date: fmt.date(m.due_on) })}</span>
}

function MilestoneRow({ repo, milestone: m, canEdit }: { repo: Repository; milestone: Milestone; canEdit: boolean }) {
  const { t } = useTranslation('tracker')
  const o = repo.owner.login
  const toggle = useEditMilestone(o, repo.name, m.id)
  const remove = useDeleteMilestone(o, repo.name, m.id)
  return (
    <li>
      <Card className="milestone-row">
        <h2 className="milestone-title">
          <PreloadLink to={`${repoHref.section(o, repo.name, 'milestones')}/${m.id}`}>{m.title}</PreloadLink>
        </h2>
        <p className="muted">
          <MilestoneDates milestone={m} />
          <SignerBadge signer={m.signer} delegation={m.delegation} />
        </p>
        {m.description && <p>{m.description}</p>}
        <MilestoneProgress milestone={m} />
        {canEdit && (
          <div className="button-row">
            <Button size="sm" variant="outline" disabled={toggle.isPending} onClick={() => toggle.mutate({ state: m.state === 'open' ? 'closed' : 'open' })}>
              {m.state === 'open' ? t('milestones.close') : t('milestones.reopen')}
            </Button>
            <Button
              size="sm"
              variant="danger"
              disabled={remove.isPending}
              onClick={() => {
                if (window.confirm(t('milestones.confirmDelete', { title: m.title }))) remove.mutate()
              }}
            >
              {t('milestones.delete')}
            </Button>
          </div>
        )}
        {(toggle.isError || remove.isError) && (
          <p className="alert-error" role="alert">
            {errorText(toggle.error ?? remove.error)}
          </p>
        )}
      </Card>
    </li>
  )
}

/** The new-milestone form: a title, a description and an optional due date. */
function MilestoneForm({ repo, onDone }: { repo: Repository; onDone: () => void }) {
  const { t } = useTranslation('tracker')
  const id = useId()
  const o = repo.owner.login
  const [title, setTitle] = useState('')
  const [description, setDescription] = useState('')
  const [due, setDue] = useState('')
  const create = useCreateMilestone(o, repo.name, onDone)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    // A date input gives the day; the milestone is due at its end, in UTC.
    if (title.trim()) create.mutate({ title: title.trim(), description, due_on: due ? `${due}T23:59:59Z` : undefined })
  }
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <form className="stack" onSubmit={submit}>
        <h2 id={`${id}-h`}>{t('milestones.new')}</h2>
        <Field label={t('milestones.titleField')}>
          <Input id={`${id}-t`} className="input" value={title} required maxLength={255} autoFocus onChange={(e) => setTitle(e.target.value)} />
        </Field>
        <Field label={t('milestones.descriptionField')}>
          <Textarea id={`${id}-d`} className="input" rows={3} maxLength={4096} value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <Field label={t('milestones.dueField')}>
          <Input id={`${id}-due`} className="input" type="date" value={due} onChange={(e) => setDue(e.target.value)} />
        </Field>
        {create.isError && (
          <p className="alert-error" role="alert">
            {errorText(create.error)}
          </p>
        )}
        <div className="button-row">
          <Button type="submit" disabled={create.isPending || !title.trim()}>
            {t('milestones.create')}
          </Button>
          <Button variant="ghost" onClick={onDone}>
            {t('milestones.cancel')}
          </Button>
        </div>
      </form>
    </Card>
  )
}
