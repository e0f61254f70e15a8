import { type MouseEvent, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { type Chooser, loadChooser } from './chooser'

/**
 * The header's Login button: opens the wallet chooser, which is its own
 * chunk. Once the sign-in message is accepted the user is signed in
 * (signedIn) and the button goes, but the chooser stays open for the
 * second prompt, the node's delegation.
 */
export function LoginButton({ signedIn = false }: { signedIn?: boolean }) {
  const { t } = useTranslation()
  const [Chooser, setChooser] = useState<Chooser | null>(null)
  const [open, setOpen] = useState(false)
  const [loading, setLoading] = useState(false)
  const [failed, setFailed] = useState(false)
  // Focus comes back here on close; some browsers do not focus a clicked button.
  const opener = useRef<HTMLButtonElement | null>(null)

  const openChooser = (e: MouseEvent<HTMLButtonElement>) => {
    opener.current = e.currentTarget
    setLoading(true)
    setFailed(false)
    loadChooser().then(
      (C) => {
        setChooser(() => C)
        setOpen(true)
        setLoading(false)
      },
      () => {
        setFailed(true)
        setLoading(false)
      },
    )
  }

  const preload = () => void loadChooser().catch(() => {})

  const chooser = open && Chooser && (
    <Chooser
      onClose={() => {
        // Unmount the dialog first: a render of it in between would pull
        // focus back inside, and it would fall to the page as it goes.
        flushSync(() => setOpen(false))
        opener.current?.focus()
      }}
    />
  )
  // The same tree either way: the chooser must not remount when the button goes.
  return (
    <>
      {!signedIn && (
        <Button
          size="sm"
          aria-haspopup="dialog"
          aria-busy={loading || undefined}
          aria-describedby={failed ? 'login-failed' : undefined}
          onClick={openChooser}
          onMouseEnter={preload}
          onFocus={preload}
        >
          {t('header.login')}
        </Button>
      )}
      {failed && !signedIn && (
        <span id="login-failed" role="alert">
          {t('header.loginFailed')}
        </span>
      )}
      {chooser}
    </>
  )
}
