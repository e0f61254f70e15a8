import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { QueryState } from '@/components/QueryState'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { type TwoFactorStatus, useDisableTwoFactor, useEnableTwoFactor, useSetupTwoFactor, useTwoFactor } from './api'
import { QrCode } from './QrCode'
import { CopyButton, ErrorAlert, Section } from './Section'

/**
 * Two-factor authentication: set up (QR code and secret), confirm with a code,
 * then the recovery codes, shown once; or, when on, turn it off with a code.
 */
export function TwoFactorSection() {
  const { t } = useTranslation('settings')
  const query = useTwoFactor()
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null)
  return (
    <Section title={t('security.twoFactor.title')}>
      <p className="muted">{t('security.twoFactor.description')}</p>
      {recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
      ) : (
        <QueryState query={query}>
          {(status) => (status.enabled ? <DisableForm status={status} /> : <Setup onEnabled={setRecoveryCodes} />)}
        </QueryState>
      )}
    </Section>
  )
}

function Setup({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation('settings')
  const id = useId()
  const [code, setCode] = useState('')
  const setup = useSetupTwoFactor()
  const enable = useEnableTwoFactor(onEnabled)

  if (!setup.data) {
    return (
      <>
        <p>{t('security.twoFactor.off')}</p>
        <Button onClick={() => setup.mutate()} disabled={setup.isPending}>
          {setup.isPending ? t('security.twoFactor.starting') : t('security.twoFactor.setup')}
        </Button>
        {setup.isError && <ErrorAlert error={setup.error} />}
      </>
    )
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (code.trim()) enable.mutate(code.replace(/\s+/g, ''))
  }
  return (
    <form onSubmit={submit} noValidate className="settings-2fa-setup">
      <p>{t('security.twoFactor.scan')}</p>
      <QrCode text={setup.data.otpauthUrl} label={t('security.twoFactor.qrLabel')} />
      <p className="settings-copy-row">
        <span>{t('security.twoFactor.secret')}</span> <code>{setup.data.secret}</code>
        <CopyButton text={setup.data.secret} />
      </p>
      <Field label={t('security.twoFactor.code')} hint={t('security.twoFactor.codeHint')}>
        <Input
          id={`${id}-code`}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={10}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <div className="button-row">
        <Button type="submit" disabled={!code.trim() || enable.isPending}>
          {enable.isPending ? t('saving') : t('security.twoFactor.enable')}
        </Button>
        <Button variant="outline" onClick={() => setup.reset()} disabled={enable.isPending}>
          {t('cancel')}
        </Button>
      </div>
      {enable.isError && <ErrorAlert error={enable.error} />}
    </form>
  )
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('settings')
  const id = useId()
  const text = codes.join('\n')
  return (
    <div className="settings-secret" role="region" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('security.twoFactor.recoveryTitle')}</h3>
      <p className="alert-success" role="status">
        {t('security.twoFactor.enabledNow')}
      </p>
      <p>
        <strong>{t('security.twoFactor.recoveryWarning')}</strong>
      </p>
      <ul className="recovery-codes" aria-label={t('security.twoFactor.recoveryTitle')}>
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="button-row">
        <CopyButton text={text} label={t('security.twoFactor.copyCodes')} />
        <a className="btn btn-outline btn-sm" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text + '\n')}`} download="dforge-recovery-codes.txt">
          {t('security.twoFactor.download')}
        </a>
        <Button size="sm" onClick={onDone}>
          {t('security.twoFactor.saved')}
        </Button>
      </div>
    </div>
  )
}

function DisableForm({ status }: { status: TwoFactorStatus }) {
  const { t } = useTranslation('settings')
  const id = useId()
  const [code, setCode] = useState('')
  const disable = useDisableTwoFactor(() => setCode(''))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (code.trim()) disable.mutate(code.replace(/\s+/g, ''))
  }
  return (
    <form onSubmit={submit} noValidate>
      <p>
        <strong>{t('security.twoFactor.on')}</strong> {t('security.twoFactor.recoveryLeft', { count: status.recoveryCodesLeft })}
      </p>
      <Field label={t('security.twoFactor.disableCode')}>
        <Input id={`${id}-code`} name="code" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <Button type="submit" variant="danger" disabled={!code.trim() || disable.isPending}>
        {t('security.twoFactor.disable')}
      </Button>
      {disable.isError && <ErrorAlert error={disable.error} />}
    </form>
  )
}
