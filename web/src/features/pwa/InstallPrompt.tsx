import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'

export const INSTALL_DISMISSED_KEY = 'pwa-install-dismissed'
export const INSTALL_DELAY_MS = 30_000
export const DISMISS_FOR_MS = 7 * 24 * 60 * 60 * 1000

interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>
  userChoice?: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

function isStandalone(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches
}

export function dismissedRecently(now = Date.now()): boolean {
  const at = Number(localStorage.getItem(INSTALL_DISMISSED_KEY))
  return Number.isFinite(at) && at > 0 && now - at < DISMISS_FOR_MS
}

/** Offers installation 30 s after the browser says the app is installable. */
export function InstallPrompt() {
  const { t } = useTranslation()
  const [deferred, setDeferred] = useState<BeforeInstallPromptEvent | null>(null)
  const [visible, setVisible] = useState(false)

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const onPrompt = (e: Event) => {
      e.preventDefault()
      if (isStandalone() || dismissedRecently()) return
      setDeferred(e as BeforeInstallPromptEvent)
      clearTimeout(timer)
      timer = setTimeout(() => setVisible(true), INSTALL_DELAY_MS)
    }
    const onInstalled = () => setVisible(false)
    window.addEventListener('beforeinstallprompt', onPrompt)
    window.addEventListener('appinstalled', onInstalled)
    return () => {
      clearTimeout(timer)
      window.removeEventListener('beforeinstallprompt', onPrompt)
      window.removeEventListener('appinstalled', onInstalled)
    }
  }, [])

  if (!visible || !deferred) return null

  const install = async () => {
    setVisible(false)
    await deferred.prompt()
    setDeferred(null)
  }
  const dismiss = () => {
    localStorage.setItem(INSTALL_DISMISSED_KEY, String(Date.now()))
    setVisible(false)
  }
  return (
    <Card size="sm" className="install-prompt" role="dialog" aria-labelledby="install-title">
      <button type="button" className="icon-button install-close" aria-label={t('install.close')} onClick={dismiss}>
        ×
      </button>
      <h2 id="install-title">{t('install.title')}</h2>
      <p>{t('install.description')}</p>
      <div className="button-row">
        <Button size="sm" onClick={() => void install()}>
          {t('install.install')}
        </Button>
        <Button size="sm" variant="ghost" onClick={dismiss}>
          {t('install.notNow')}
        </Button>
      </div>
    </Card>
  )
}
