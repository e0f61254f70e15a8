import { useState } from 'react'
import { flushSync } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Dialog } from '@/components/Dialog'
import { errorText } from '@/lib/http'
import { useDelegationStore } from '@/stores/delegation'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useWalletPromptStore } from '@/stores/walletPrompt'
import { type Chooser, loadChooser } from './chooser'
import { isUserRejection } from './errors'
import { authorizeThisNode } from './signIn'
import './auth.css'

/**
 * What the signed-in user must know about this node's right to post in
 * their name, wherever they are: a notice with a retry while it has none
 * (the second sign-in prompt was declined), a dialog asking them to sign in
 * again when a write was refused because it ran out or was revoked, and a
 * line while their wallet asks them to sign a sensitive action.
 */
export function AccountNotices() {
  const user = useSignedInUser()
  const status = useDelegationStore((s) => s.status)
  return (
    <>
      <WalletPromptNotice />
      {user && status === 'declined' && <NotAuthorizedNotice />}
      {user && status === 'expired' && <ExpiredDialog />}
    </>
  )
}

function WalletPromptNotice() {
  const { t } = useTranslation()
  const open = useWalletPromptStore((s) => s.open)
  if (!open) return null
  return (
    <p className="account-notice wallet-prompt-notice" role="status">
      {t('walletSignature.prompt')}
    </p>
  )
}

function NotAuthorizedNotice() {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const retry = async () => {
    setBusy(true)
    setError(null)
    try {
      await authorizeThisNode()
    } catch (err) {
      setError(isUserRejection(err) ? t('walletSignature.rejected') : errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="account-notice" aria-label={t('delegation.title')}>
      <p>
        <strong>{t('delegation.title')}</strong> {t('delegation.declined')}
      </p>
      <div className="button-row">
        <Button size="sm" onClick={() => void retry()} disabled={busy} aria-busy={busy || undefined}>
          {busy ? t('delegation.authorizing') : t('delegation.authorize')}
        </Button>
      </div>
      {busy && (
        <p className="muted" role="status">
          {t('delegation.confirmInWallet')}
        </p>
      )}
      {error && (
        <p className="alert-error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}

function ExpiredDialog() {
  const { t } = useTranslation()
  const [Chooser, setChooser] = useState<Chooser | null>(null)
  const [loading, setLoading] = useState(false)
  const [failed, setFailed] = useState(false)
  // Put off: the notice with its retry stays, so the next write is not a surprise.
  const later = () => useDelegationStore.getState().declined()
  const signInAgain = () => {
    setLoading(true)
    setFailed(false)
    loadChooser().then(
      (C) => {
        // One dialog at a time: this one gives way to the chooser.
        flushSync(() => setChooser(() => C))
        setLoading(false)
      },
      () => {
        setFailed(true)
        setLoading(false)
      },
    )
  }
  if (Chooser) {
    return (
      <Chooser
        onClose={() => {
          setChooser(null)
          // Closed without authorizing: keep the notice, not this dialog.
          if (useDelegationStore.getState().status === 'expired') later()
        }}
      />
    )
  }
  return (
    <Dialog title={t('delegation.expiredTitle')} description={<p>{t('delegation.expired')}</p>} closeLabel={t('delegation.close')} onClose={later}>
      <div className="button-row">
        <Button onClick={signInAgain} disabled={loading} aria-busy={loading || undefined}>
          {t('delegation.signInAgain')}
        </Button>
        <Button variant="outline" onClick={later}>
          {t('delegation.later')}
        </Button>
      </div>
      {failed && (
        <p className="alert-error" role="alert">
          {t('header.loginFailed')}
        </p>
      )}
    </Dialog>
  )
}
