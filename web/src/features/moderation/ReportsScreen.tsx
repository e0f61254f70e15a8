import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { SignInNotice } from '@/components/SignInNotice'
import { Tabs } from '@/components/Tabs'
import { Field } from '@/components/Field'
import { Select } from '@/components/Select'
import { Textarea } from '@/components/Textarea'
import { errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { KINDS, MAX_REASON, type ModAction, PAGE_SIZE, type QueueFilter, type Report, useIsModerator, useModerate, useMyReports, useQueue } from './api'
import { ModDialog } from './ModDialog'
import { HiddenList, SuspensionList } from './ModerationLists'
import './moderation.css'

const STATUSES = ['open', 'resolved'] as const

/** /reports: the moderators' queue (for the node's admins) and the signed-in user's own reports. */
export default function ReportsScreen() {
  const { t } = useTranslation('moderation')
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  const moderator = useIsModerator(user !== null)
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={user ? t(moderator.data ? 'leadModerator' : 'lead') : undefined} />
      {!user ? (
        <SignInNotice message={t('signedOut')} />
      ) : (
        <>
          {moderator.data && (
            <>
              <Queue />
              <HiddenList />
              <SuspensionList />
            </>
          )}
          <MyReports />
        </>
      )}
    </div>
  )
}

function Queue() {
  const { t } = useTranslation('moderation')
  const [filter, setFilter] = useState<QueueFilter>({ status: 'open', kind: '' })
  const [page, setPage] = useState(1)
  const query = useQueue(filter, page)
  const change = (f: Partial<QueueFilter>) => {
    setFilter({ ...filter, ...f })
    setPage(1)
  }
  return (
    <section className="stack" aria-labelledby="queue-title">
      <h2 id="queue-title">{t('queue.title')}</h2>
      <Tabs label={t('queue.statusLabel')} tabs={STATUSES.map((id) => ({ id, label: t(`status.${id}`) }))} selected={filter.status} onSelect={(status) => change({ status })}>
        <div className="report-filters">
          <label>
            {t('queue.kind')}{' '}
            <Select value={filter.kind} onChange={(e) => change({ kind: e.target.value as QueueFilter['kind'] })}>
              <option value="">{t('kind.any')}</option>
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`kind.${k}`)}
                </option>
              ))}
            </Select>
          </label>
        </div>
        <Paged query={query} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('queue.title')} empty={t(`queue.empty.${filter.status}`)}>
          {(reports) => (
            <ul className="report-list">
              {reports.map((r) => (
                <li key={r.id}>
                  <ReportCard report={r} moderate />
                </li>
              ))}
            </ul>
          )}
        </Paged>
      </Tabs>
    </section>
  )
}

function MyReports() {
  const { t } = useTranslation('moderation')
  const [page, setPage] = useState(1)
  const query = useMyReports(page)
  return (
    <section className="stack" aria-labelledby="mine-title">
      <h2 id="mine-title">{t('mine.title')}</h2>
      <Paged query={query} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('mine.title')} empty={t('mine.empty')}>
        {(reports) => (
          <ul className="report-list">
            {reports.map((r) => (
              <li key={r.id}>
                <ReportCard report={r} moderate={false} />
              </li>
            ))}
          </ul>
        )}
      </Paged>
    </section>
  )
}

function ReportCard({ report: r, moderate }: { report: Report; moderate: boolean }) {
  const { t, i18n } = useTranslation('moderation')
  const [action, setAction] = useState<ModAction | null>(null)
  const when = new Date(r.created_at).toLocaleString(i18n.language)
  return (
    <Card as="article" className="report-row" aria-label={t('report.label', { id: r.id })}>
      <div>
        <span className="badge">{t(`kind.${r.kind}`)}</span> <strong>{r.target_label}</strong> · {t(`reason.${r.reason}`, { defaultValue: r.reason })}
      </div>
      {r.detail && <p className="report-detail">{r.detail}</p>}
      <div className="muted">
        {moderate && <span>{t('report.by', { who: r.reporter })} · </span>}
        <span>{when}</span> · <span>{r.status === 'open' ? t('status.open') : t(`action.${r.action}`, { defaultValue: r.action })}</span>
        {r.note && <span> · {r.note}</span>}
      </div>
      {moderate && r.status === 'open' && (
        <div className="button-row">
          <Button size="sm" variant="outline" onClick={() => setAction('dismiss')}>
            {t('actions.dismiss')}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setAction('hide')}>
            {t('actions.hide')}
          </Button>
          <Button size="sm" variant="danger" onClick={() => setAction('suspend')}>
            {t('actions.suspend')}
          </Button>
        </div>
      )}
      {action && <ConfirmAction report={r} action={action} onClose={() => setAction(null)} />}
    </Card>
  )
}

/** The confirm dialog of a moderator's action, with the reason others will see (a note for a dismissal). */
function ConfirmAction({ report, action, onClose }: { report: Report; action: ModAction; onClose: () => void }) {
  const { t } = useTranslation('moderation')
  const [reason, setReason] = useState('')
  const moderate = useModerate()
  const needsReason = action !== 'dismiss'
  return (
    <ModDialog title={t(`confirm.${action}.title`, { what: report.target_label })} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          moderate.mutate({ id: report.id, action, reason: reason.trim() }, { onSuccess: onClose })
        }}
      >
        <p>{t(`confirm.${action}.body`)}</p>
        <Field label={needsReason ? t('confirm.reason') : t('confirm.note')}>
          <Textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={MAX_REASON} required={needsReason} />
        </Field>
        {moderate.isError && (
          <p className="alert-error" role="alert">
            {errorText(moderate.error)}
          </p>
        )}
        <div className="button-row">
          <Button type="submit" size="sm" variant={action === 'dismiss' ? 'primary' : 'danger'} disabled={moderate.isPending || (needsReason && !reason.trim())}>
            {t(`actions.${action}`)}
          </Button>
          <Button size="sm" variant="ghost" onClick={onClose}>
            {t('report.cancel')}
          </Button>
        </div>
      </form>
    </ModDialog>
  )
}
