import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Field } from '@/components/Field'
import { Select } from '@/components/Select'
import { Textarea } from '@/components/Textarea'
import { ApiError, errorText } from '@/lib/http'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { MAX_DETAIL, REASONS, type ReportKind, type ReportReason, useFileReport } from './api'
import { ModDialog } from './ModDialog'

/**
 * "Report": a small dialog with a reason and a detail, for a signed-in
 * user. target names what is reported: a username; owner/name;
 * owner/name#number; owner/name/comments/id.
 */
export function ReportButton({ kind, target, label, author }: { kind: ReportKind; target: string; label?: string; author?: string }) {
  const { t } = useTranslation('moderation')
  const user = useSignedInUser()
  const [open, setOpen] = useState(false)
  if (!user) return null
  if (!label && author) label = t('report.commentBy', { user: author })
  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)} aria-label={t('report.open', { what: label ?? t(`kind.${kind}`) })}>
        {t('report.button')}
      </Button>
      {open && <ReportDialog kind={kind} target={target} label={label} onClose={() => setOpen(false)} />}
    </>
  )
}

function ReportDialog({ kind, target, label, onClose }: { kind: ReportKind; target: string; label?: string; onClose: () => void }) {
  const { t } = useTranslation('moderation')
  const [reason, setReason] = useState<ReportReason>('spam')
  const [detail, setDetail] = useState('')
  const file = useFileReport()
  const already = file.error instanceof ApiError && file.error.code === 'already_reported'
  return (
    <ModDialog title={t('report.title', { what: label ?? t(`kind.${kind}`) })} onClose={onClose}>
      {file.isSuccess ? (
        <div className="stack">
          <p role="status">{t('report.sent')}</p>
          <Button size="sm" onClick={onClose}>
            {t('report.close')}
          </Button>
        </div>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            file.mutate({ kind, target, reason, detail })
          }}
        >
          <Field label={t('report.reason')}>
            <Select value={reason} onChange={(e) => setReason(e.target.value as ReportReason)}>
              {REASONS.map((r) => (
                <option key={r} value={r}>
                  {t(`reason.${r}`)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('report.detail')}>
            <Textarea value={detail} onChange={(e) => setDetail(e.target.value)} rows={4} maxLength={MAX_DETAIL} />
          </Field>
          {file.isError && (
            <p className="alert-error" role="alert">
              {already ? t('report.already') : errorText(file.error)}
            </p>
          )}
          <div className="button-row">
            <Button type="submit" size="sm" disabled={file.isPending}>
              {file.isPending ? t('report.sending') : t('report.send')}
            </Button>
            <Button size="sm" variant="ghost" onClick={onClose}>
              {t('report.cancel')}
            </Button>
          </div>
        </form>
      )}
    </ModDialog>
  )
}
