import { useEffect, useId, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import { emptyMilestone, type GrantTerms, MAX_MILESTONES, MAX_REVIEWERS, type MilestoneRow, type TermsErrors } from './terms'
import './grants.css'

/**
 * The grant proposal's terms: milestones (added and removed as rows), the
 * reviewers and the expiry. Controlled: the governance form holds the
 * value and checks it with checkGrantTerms before signing.
 */
export function GrantTermsEditor({
  value,
  onChange,
  errors,
  symbol,
  height,
  focusRequest = 0,
}: {
  value: GrantTerms
  onChange: (next: GrantTerms) => void
  errors: TermsErrors
  symbol: string
  /** The chain's height now, for the expiry's hint. */
  height?: number
  /** Each new value moves the focus to the first invalid control (after a refused submit). */
  focusRequest?: number
}) {
  const { t } = useTranslation('grants')
  const id = useId()
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (focusRequest > 0) root.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [focusRequest])
  const setRow = (i: number, field: keyof MilestoneRow, v: string) =>
    onChange({ ...value, milestones: value.milestones.map((m, j) => (j === i ? { ...m, [field]: v } : m)) })
  const remove = (i: number) => onChange({ ...value, milestones: value.milestones.filter((_, j) => j !== i) })
  const add = () => onChange({ ...value, milestones: [...value.milestones, emptyMilestone()] })

  const errorId = (name: string) => `${id}-${name.replaceAll('.', '-')}-error`
  const error = (name: string) => {
    const err = errors[name]
    return err ? (
      <span id={errorId(name)} className="field-error">
        {t(`errors.${err.key}`, err.values)}
      </span>
    ) : null
  }
  const message = (name: string) => {
    const err = errors[name]
    return err ? t(`errors.${err.key}`, err.values) : undefined
  }

  return (
    <div className="grant-editor" ref={root}>
      <fieldset className="grant-milestones" aria-describedby={errors.milestones ? errorId('milestones') : undefined}>
        <legend>{t('editor.milestones')}</legend>
        <p className="muted field-hint">{t('editor.milestonesHint', { max: MAX_MILESTONES })}</p>
        {value.milestones.map((m, i) => {
          const at = `milestones.${i}`
          return (
            <fieldset key={i} className="grant-milestone-row">
              <legend>{t('editor.milestone', { n: i + 1 })}</legend>
              <Field label={t('editor.description')} error={message(`${at}.description`)}>
                <Textarea
                  id={`${id}-${i}-description`}
                  rows={2}
                  value={m.description}
                  onChange={(e) => setRow(i, 'description', e.target.value)}
                />
              </Field>
              <div className="grant-milestone-pair">
                <Field label={t('editor.amount', { symbol })} error={message(`${at}.amount`)}>
                  <Input
                    id={`${id}-${i}-amount`}
                    inputMode="decimal"
                    autoComplete="off"
                    value={m.amount}
                    onChange={(e) => setRow(i, 'amount', e.target.value)}
                  />
                </Field>
                <Field label={t('editor.recipient')} error={message(`${at}.recipient`)}>
                  <Input
                    id={`${id}-${i}-recipient`}
                    className="mono"
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="0x…"
                    value={m.recipient}
                    onChange={(e) => setRow(i, 'recipient', e.target.value)}
                  />
                </Field>
              </div>
              <Button size="sm" variant="ghost" onClick={() => remove(i)} disabled={value.milestones.length <= 1}>
                {t('editor.remove', { n: i + 1 })}
              </Button>
            </fieldset>
          )
        })}
        <Button size="sm" variant="outline" onClick={add} disabled={value.milestones.length >= MAX_MILESTONES}>
          {t('editor.add')}
        </Button>
        {error('milestones')}
      </fieldset>
      <Field label={t('editor.reviewers')} hint={t('editor.reviewersHint', { max: MAX_REVIEWERS })} error={message('reviewers')}>
        <Textarea
          id={`${id}-reviewers`}
          className="mono"
          rows={3}
          spellCheck={false}
          value={value.reviewers}
          onChange={(e) => onChange({ ...value, reviewers: e.target.value })}
        />
      </Field>
      <Field label={t('editor.expiry')} hint={height === undefined ? t('editor.expiryHint') : t('editor.expiryHintAt', { height })} error={message('expiry')}>
        <Input
          id={`${id}-expiry`}
          inputMode="numeric"
          autoComplete="off"
          value={value.expiry}
          onChange={(e) => onChange({ ...value, expiry: e.target.value })}
        />
      </Field>
    </div>
  )
}
