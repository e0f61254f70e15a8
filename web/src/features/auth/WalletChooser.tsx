import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Dialog } from '@/components/Dialog'
import { Spinner } from '@/components/Spinner'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { describeError, type ErrorText } from './errors'
import { authorizeThisNode, completeTwoFactor, type SignInStep, signInWithWallet } from './signIn'
import { discoverWallets, type WalletInfo } from '@/lib/wallet'
import './auth.css'

const STEPS: readonly SignInStep[] = ['connecting', 'signing', 'verifying', 'authorizing']

/** Where to get a wallet; names are brands, the labels still go through i18n. */
const WALLET_SITES = [
  { key: 'metamask', href: 'https://metamask.io/download/' },
  { key: 'rabby', href: 'https://rabby.io/' },
  { key: 'coinbase', href: 'https://www.coinbase.com/wallet' },
  { key: 'brave', href: 'https://brave.com/wallet/' },
  { key: 'more', href: 'https://ethereum.org/en/wallets/find-wallet/' },
] as const

type Phase =
  | { name: 'discovering' }
  | { name: 'choose'; wallets: WalletInfo[] }
  | { name: 'none' }
  /** expiry: the block the delegation asked for in the second prompt would hold until. */
  | { name: 'progress'; wallet: WalletInfo; step: SignInStep; expiry?: number }
  | { name: 'failed'; wallet: WalletInfo; step: SignInStep; error: ErrorText }
  | { name: 'twoFactor'; challenge: string; wallet: WalletInfo }
  /** Signed in, but this node holds no delegation: the second prompt was declined or failed. */
  | { name: 'unauthorized'; wallet: WalletInfo; error: ErrorText }

/**
 * The sign-in dialog: pick a wallet, then connect, sign the SIWE message and
 * have the server check it, then (a second prompt, when this node needs it)
 * sign the delegation that lets the node post in the user's name, with each
 * step shown as it happens. An account with two-factor authentication
 * answers a code in the same dialog, before the second prompt.
 */
export default function WalletChooser({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('auth')
  const [phase, setPhase] = useState<Phase>({ name: 'discovering' })
  const [wallets, setWallets] = useState<WalletInfo[]>([])
  // Answers that arrive after the dialog closed must not touch it.
  const open = useRef(true)
  useEffect(() => {
    open.current = true
    return () => {
      open.current = false
    }
  }, [])

  const discover = useCallback(async () => {
    setPhase({ name: 'discovering' })
    const found = await discoverWallets()
    if (!open.current) return
    setWallets(found)
    setPhase(found.length ? { name: 'choose', wallets: found } : { name: 'none' })
  }, [])

  useEffect(() => {
    void discover()
  }, [discover])

  // Signed in by now: whatever happens here, the user stays signed in.
  const authorize = async (wallet: WalletInfo) => {
    setPhase({ name: 'progress', wallet, step: 'authorizing' })
    try {
      await authorizeThisNode((need) => {
        if (open.current) setPhase({ name: 'progress', wallet, step: 'authorizing', expiry: need.expiry })
      })
      if (open.current) onClose()
    } catch (err) {
      if (open.current) setPhase({ name: 'unauthorized', wallet, error: describeError(err) })
    }
  }

  const start = async (wallet: WalletInfo) => {
    let step: SignInStep = 'connecting'
    try {
      const result = await signInWithWallet(wallet, (s) => {
        step = s
        if (open.current) setPhase({ name: 'progress', wallet, step: s })
      })
      if (!open.current) return
      if (result.done) await authorize(wallet)
      else setPhase({ name: 'twoFactor', challenge: result.challenge, wallet })
    } catch (err) {
      if (open.current) setPhase({ name: 'failed', wallet, step, error: describeError(err) })
    }
  }

  const backToList = () => setPhase(wallets.length ? { name: 'choose', wallets } : { name: 'none' })

  return (
    <Dialog title={t('chooser.title')} description={<p>{t('chooser.description')}</p>} closeLabel={t('chooser.close')} onClose={onClose}>
      {phase.name === 'discovering' && (
        <div className="inline-loading" role="status">
          <Spinner size="sm" /> <span>{t('chooser.looking')}</span>
        </div>
      )}
      {phase.name === 'choose' && <WalletList wallets={phase.wallets} onChoose={(w) => void start(w)} />}
      {phase.name === 'none' && <NoWallet onLookAgain={() => void discover()} />}
      {(phase.name === 'progress' || phase.name === 'failed') && (
        <>
          <Progress wallet={phase.wallet} step={phase.step} failed={phase.name === 'failed'} expiry={phase.name === 'progress' ? phase.expiry : undefined} />
          {phase.name === 'failed' && (
            <>
              <p className="alert-error" role="alert">
                {t(phase.error.key, phase.error.values)}
              </p>
              <div className="button-row">
                <Button autoFocus onClick={() => void start(phase.wallet)}>
                  {t('chooser.tryAgain')}
                </Button>
                <Button variant="outline" onClick={backToList}>
                  {t('chooser.chooseAnother')}
                </Button>
              </div>
            </>
          )}
        </>
      )}
      {phase.name === 'twoFactor' && (
        <TwoFactorForm challenge={phase.challenge} onDone={() => void authorize(phase.wallet)} onStartOver={() => void start(phase.wallet)} isOpen={open} />
      )}
      {phase.name === 'unauthorized' && (
        <>
          <Progress wallet={phase.wallet} step="authorizing" failed />
          <p className="alert-error" role="alert">
            {t(phase.error.key, phase.error.values)}
          </p>
          <p>{t('authorize.signedInAnyway')}</p>
          <div className="button-row">
            <Button autoFocus onClick={() => void authorize(phase.wallet)}>
              {t('authorize.retry')}
            </Button>
            <Button variant="outline" onClick={onClose}>
              {t('authorize.later')}
            </Button>
          </div>
        </>
      )}
    </Dialog>
  )
}

function WalletList({ wallets, onChoose }: { wallets: WalletInfo[]; onChoose: (w: WalletInfo) => void }) {
  const { t } = useTranslation('auth')
  return (
    <ul className="wallet-list" aria-label={t('chooser.listLabel')}>
      {wallets.map((w, i) => (
        <li key={w.id}>
          <button type="button" className="wallet-option" autoFocus={i === 0} onClick={() => onChoose(w)}>
            {w.icon ? <img src={w.icon} alt="" width={32} height={32} /> : <WalletIcon />}
            <span>{w.id === 'injected' ? t('chooser.injectedName') : w.name}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}

function Progress({ wallet, step, failed, expiry }: { wallet: WalletInfo; step: SignInStep; failed: boolean; expiry?: number }) {
  const { t } = useTranslation('auth')
  const current = STEPS.indexOf(step)
  return (
    <>
      <p className="muted">{t('steps.with', { name: wallet.id === 'injected' ? t('chooser.injectedName') : wallet.name })}</p>
      <ol className="signin-steps" aria-label={t('steps.label')}>
        {STEPS.map((s, i) => {
          const state = i < current ? 'done' : i === current ? (failed ? 'failed' : 'current') : 'pending'
          return (
            <li key={s} className={`signin-step signin-step-${state}`} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="signin-step-mark" aria-hidden="true">
                {state === 'done' ? '✓' : state === 'failed' ? '✕' : state === 'current' ? <Spinner size="sm" /> : i + 1}
              </span>
              <span>{t(`steps.${s}`)}</span>
              <span className="visually-hidden"> ({t(`steps.state.${state}`)})</span>
            </li>
          )
        })}
      </ol>
      {!failed && (
        <p role="status" className="signin-status">
          {/* Why a second prompt: said while the wallet shows it. */}
          {step === 'authorizing' && expiry !== undefined ? t('steps.status.authorizingUntil', { block: expiry }) : t(`steps.status.${step}`)}
        </p>
      )}
    </>
  )
}

function TwoFactorForm({
  challenge,
  onDone,
  onStartOver,
  isOpen,
}: {
  challenge: string
  onDone: () => void
  onStartOver: () => void
  isOpen: { current: boolean }
}) {
  const { t } = useTranslation('auth')
  const id = useId()
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ErrorText | null>(null)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!code.trim()) return
    setBusy(true)
    setError(null)
    try {
      await completeTwoFactor(challenge, code)
      if (isOpen.current) onDone()
    } catch (err) {
      if (!isOpen.current) return
      setError(describeError(err))
      setBusy(false)
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('twoFactor.title')}</h3>
      <p className="muted">{t('twoFactor.description')}</p>
      <Field label={t('twoFactor.code')} hint={t('twoFactor.hint')}>
        <Input
          id={`${id}-code`}
          name="code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          autoFocus
          aria-describedby={error ? `${id}-error` : undefined}
          aria-invalid={error ? true : undefined}
        />
      </Field>
      {error && (
        <p id={`${id}-error`} className="alert-error" role="alert">
          {t(error.key, error.values)}
        </p>
      )}
      <div className="button-row">
        <Button type="submit" disabled={busy || !code.trim()}>
          {busy ? t('twoFactor.verifying') : t('twoFactor.submit')}
        </Button>
        <Button variant="outline" onClick={onStartOver} disabled={busy}>
          {t('twoFactor.startOver')}
        </Button>
      </div>
    </form>
  )
}

function NoWallet({ onLookAgain }: { onLookAgain: () => void }) {
  const { t } = useTranslation('auth')
  const id = useId()
  return (
    <section aria-labelledby={`${id}-title`} className="no-wallet">
      <h3 id={`${id}-title`}>{t('noWallet.title')}</h3>
      <p>{t('noWallet.what')}</p>
      <p>{t('noWallet.how')}</p>
      <ul aria-label={t('noWallet.linksLabel')} className="wallet-sites">
        {WALLET_SITES.map((site) => (
          <li key={site.key}>
            <a href={site.href} target="_blank" rel="noopener noreferrer">
              {t(`noWallet.sites.${site.key}`)}
              <span className="visually-hidden"> {t('noWallet.newTab')}</span>
            </a>
          </li>
        ))}
      </ul>
      <Button variant="outline" onClick={onLookAgain}>
        {t('noWallet.lookAgain')}
      </Button>
    </section>
  )
}

function WalletIcon() {
  return (
    <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round">
      <rect x="3" y="6" width="18" height="13" rx="2" />
      <path d="M16 12.5h2M3 9h15a2 2 0 0 0-2-3H6" />
    </svg>
  )
}
