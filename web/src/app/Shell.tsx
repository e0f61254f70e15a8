import i18n from 'i18next'
import { type ReactNode, Suspense } from 'react'
import { Spinner } from '@/components/Spinner'
import { AccountNotices } from '@/features/auth/AccountNotices'
import { MusicPlayer } from '@/features/music/MusicPlayer'
import { InstallPrompt } from '@/features/pwa/InstallPrompt'
import { OfflineBanner } from '@/features/pwa/OfflineBanner'
import { SavedCopyNotice } from '@/features/pwa/SavedCopyNotice'
import { UsernamePrompt } from '@/features/settings/UsernamePrompt'
import { Footer } from './Footer'
import { Header } from './Header'
import { ScreenBoundary } from './ScreenBoundary'

/** The frame every screen renders in. */
export function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="shell">
      <Header />
      <main className="shell-main container" id="main">
        <AccountNotices />
        <UsernamePrompt />
        <SavedCopyNotice />
        <ScreenBoundary>
          <Suspense fallback={<FullScreenLoading />}>
            {children}
          </Suspense>
        </ScreenBoundary>
      </main>
      <Footer />
      <OfflineBanner />
      <InstallPrompt />
      <MusicPlayer />
    </div>
  )
}

// Uses i18n.t rather than the hook: this fallback shows while translations load.
export function FullScreenLoading() {
  return (
    <div className="fullscreen-loading" role="status" aria-live="polite">
      <Spinner size="lg" />
      <span>{i18n.t('state.loadingScreen', { defaultValue: 'Loading...' })}</span>
    </div>
  )
}
