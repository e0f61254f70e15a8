import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { SignInNotice } from '@/components/SignInNotice'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import { useLiveChain } from '@/lib/chain/api'
import { type RoleHolder, useRoleHolders } from '@/lib/community'
import { ApiError, errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import type { User } from '@/stores/auth'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type Application, type ApplicationErrors, checkApplication, LIMITS, proposeHref, useSendApplication } from './api'
import { Avatar } from './Avatar'
import './ambassadors.css'

const PAGE_SIZE = 12

// The program's texts, program.<section>.items.<key> in the ambassadors namespace.
const PROGRAM = {
  do: ['welcome', 'teach', 'events', 'feedback'],
  get: ['role', 'support', 'voice', 'rewards'],
  apply: ['profile', 'choose', 'vote'],
} as const

/** /ambassadors: the program, the people who hold the ambassador role, and how to apply. */
export default function AmbassadorsScreen() {
  const { t } = useTranslation('ambassadors')
  useDocumentTitle(t('title'))
  useLiveChain()
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={t('lead')} />
      <Program />
      <Holders />
      <Apply />
    </div>
  )
}

function Program() {
  const { t } = useTranslation('ambassadors')
  return (
    <section aria-labelledby="ambassadors-program">
      <h2 id="ambassadors-program">{t('program.title')}</h2>
      <ul className="grid ambassadors-program">
        {(Object.keys(PROGRAM) as (keyof typeof PROGRAM)[]).map((section) => (
          <Card as="li" key={section}>
            <h3>{t(`program.${section}.title`)}</h3>
            {section === 'apply' ? (
              <ol>
                {PROGRAM[section].map((item) => (
                  <li key={item}>{t(`program.${section}.items.${item}`)}</li>
                ))}
              </ol>
            ) : (
              <ul>
                {PROGRAM[section].map((item) => (
                  <li key={item}>{t(`program.${section}.items.${item}`)}</li>
                ))}
              </ul>
            )}
          </Card>
        ))}
      </ul>
    </section>
  )
}

function Holders() {
  const { t } = useTranslation('ambassadors')
  const [page, setPage] = useState(1)
  const holders = useRoleHolders('ambassador', page, PAGE_SIZE)
  return (
    <section aria-labelledby="ambassadors-holders">
      <h2 id="ambassadors-holders">{t('holders.title')}</h2>
      <Paged query={holders} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('holders.label')} empty={t('holders.empty')}>
        {(items) => (
          <ul className="grid ambassadors-holders">
            {items.map((h) => (
              <HolderCard key={h.user.wallet_address} holder={h} />
            ))}
          </ul>
        )}
      </Paged>
    </section>
  )
}

function HolderCard({ holder: h }: { holder: RoleHolder }) {
  const { t } = useTranslation('ambassadors')
  const name = h.user.full_name || h.user.login
  return (
    <Card as="li" className="ambassador-card">
      <Avatar name={name} address={h.user.wallet_address} url={h.user.avatar_url} />
      <div>
        <h3>
          <PreloadLink to={`/${h.user.login}`}>{name}</PreloadLink>
        </h3>
        {h.user.full_name && <p className="muted">@{h.user.login}</p>}
        <p>
          <span className="muted">{t('holders.region')}</span> {h.user.location || t('holders.noRegion')}
        </p>
        <p>{h.user.description || <span className="muted">{t('holders.noBio')}</span>}</p>
        <p className="muted ambassador-since">
          {h.proposal > 0 ? (
            <PreloadLink to={`/governance/${h.proposal}`}>{t('holders.viaProposal', { id: h.proposal })}</PreloadLink>
          ) : (
            t('holders.genesis')
          )}
        </p>
      </div>
    </Card>
  )
}

type Choice = 'none' | 'send' | 'sent'

function Apply() {
  const { t } = useTranslation('ambassadors')
  const user = useSignedInUser()
  const [choice, setChoice] = useState<Choice>('none')
  return (
    <section aria-labelledby="ambassadors-apply">
      <h2 id="ambassadors-apply">{t('apply.title')}</h2>
      {!user ? (
        <SignInNotice message={t('apply.signedOut')} />
      ) : choice === 'sent' ? (
        <Card>
          <p className="alert-success" role="status">
            {t('apply.sent')}
          </p>
          <PreloadLink to="/help">{t('apply.tickets')}</PreloadLink>
        </Card>
      ) : (
        <Card className="stack">
          <p>{t('apply.choose')}</p>
          <div className="ambassadors-choices">
            <div>
              <Button variant={choice === 'send' ? 'primary' : 'outline'} aria-expanded={choice === 'send'} aria-controls="ambassadors-application" onClick={() => setChoice(choice === 'send' ? 'none' : 'send')}>
                {t('apply.send')}
              </Button>
              <p className="muted">{t('apply.sendHint')}</p>
            </div>
            <div>
              {user.walletAddress ? (
                <PreloadLink className="btn btn-outline btn-md" to={proposeHref(user.walletAddress)}>
                  {t('apply.propose')}
                </PreloadLink>
              ) : (
                <Button variant="outline" disabled aria-describedby="ambassadors-no-wallet">
                  {t('apply.propose')}
                </Button>
              )}
              <p className="muted" id={user.walletAddress ? undefined : 'ambassadors-no-wallet'}>
                {user.walletAddress ? t('apply.proposeHint') : t('apply.noWallet')}
              </p>
            </div>
          </div>
          {choice === 'send' && <ApplicationForm user={user} onSent={() => setChoice('sent')} />}
        </Card>
      )}
    </section>
  )
}

function ApplicationForm({ user, onSent }: { user: User; onSent: () => void }) {
  const { t } = useTranslation('ambassadors')
  const id = useId()
  const send = useSendApplication()
  const [values, setValues] = useState<Application>(() => ({
    name: user.displayName || user.username,
    email: '',
    subject: t('apply.template.subject'),
    message: t('apply.template.message'),
  }))
  const [errors, setErrors] = useState<ApplicationErrors>({})

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const found = checkApplication(values)
    setErrors(found)
    const first = (Object.keys(LIMITS) as (keyof Application)[]).find((f) => found[f])
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus()
      return
    }
    send.mutate(values, {
      onSuccess: onSent,
      onError: (err) => {
        // A field the server refused is shown on that field.
        if (err instanceof ApiError && err.field && err.field in LIMITS) {
          setErrors({ [err.field]: { key: err.code === 'invalid_email' ? 'email' : err.code === 'too_long' ? 'tooLong' : 'required' } })
        }
      },
    })
  }

  const field = (name: keyof Application, multiline = false) => {
    const err = errors[name]
    const props = {
      id: `${id}-${name}`,
      value: values[name],
      onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    }
    return (
      <Field label={t(`apply.form.${name}`)} error={err ? t(`apply.errors.${err.key}`, { max: err.max }) : undefined}>
        {multiline ? <Textarea rows={8} {...props} /> : <Input type={name === 'email' ? 'email' : 'text'} autoComplete={name === 'email' ? 'email' : name === 'name' ? 'name' : 'off'} {...props} />}
      </Field>
    )
  }

  return (
    <form id="ambassadors-application" className="stack" onSubmit={submit} noValidate aria-label={t('apply.send')}>
      <fieldset disabled={send.isPending}>
        {field('name')}
        {field('email')}
        {field('subject')}
        {field('message', true)}
        <Button type="submit">{t('apply.form.submit')}</Button>
      </fieldset>
      {send.isError && !(send.error instanceof ApiError && send.error.field) && (
        <p className="alert-error" role="alert">
          {t('apply.failed', { reason: errorText(send.error) })}
        </p>
      )}
    </form>
  )
}
