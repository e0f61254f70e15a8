import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Logo } from '@/components/Logo'
import { PreloadLink } from '@/components/PreloadLink'
import { Select } from '@/components/Select'
import { LoginButton } from '@/features/auth/LoginButton'
import { logout, useSessionSync } from '@/features/auth/session'
import { MessagesBadge } from '@/features/messages'
import { NotificationBadge } from '@/features/notifications'
import { LANGUAGES, normalizeLanguage } from '@/i18n/i18n'
import { useRoute } from '@/lib/routes'
import { useAuthStore } from '@/stores/auth'
import { resolveTheme, useThemeStore } from '@/stores/theme'
import { preloadPath } from './preload'

export const NAV_PAGES = ['home', 'about', 'explore', 'governance', 'rewards'] as const

/** The active nav item is the first path segment; the root is home. */
export function activePage(pathname: string): string {
  return pathname.split('/').filter(Boolean)[0] ?? 'home'
}

// Navigation is a full page load, as the spec asks, so each visit starts clean.
function go(path: string) {
  window.location.assign(path)
}

export function Header() {
  const { t } = useTranslation()
  return (
    <header className="header">
      <div className="header-inner container">
        <a className="brand" href="/" onMouseEnter={() => preloadPath('/')}>
          <Logo />
          <span className="brand-text">
            <span className="brand-name">dForge</span>
            <span className="brand-tagline">{t('app.tagline')}</span>
          </span>
        </a>
        <Nav />
        <div className="header-tools">
          <LanguageSelect />
          <ThemeToggle />
          <Account />
        </div>
      </div>
    </header>
  )
}

function Nav() {
  const { t } = useTranslation()
  const active = activePage(useRoute().pathname)
  return (
    <nav className="nav" aria-label={t('nav.label')}>
      {NAV_PAGES.map((page) => {
        const path = `/${page}`
        return (
          <button
            key={page}
            type="button"
            className={`nav-item${active === page ? ' active' : ''}`}
            aria-current={active === page ? 'page' : undefined}
            onClick={() => go(path)}
            onMouseEnter={() => preloadPath(path)}
            onFocus={() => preloadPath(path)}
          >
            {t(`nav.${page}`)}
          </button>
        )
      })}
    </nav>
  )
}

function LanguageSelect() {
  const { t, i18n } = useTranslation()
  return (
    <Select
      className="language-select"
      aria-label={t('header.language')}
      value={normalizeLanguage(i18n.resolvedLanguage ?? i18n.language ?? 'en')}
      onChange={(e) => void i18n.changeLanguage(e.target.value)}
    >
      {LANGUAGES.map((l) => (
        <option key={l.code} value={l.code} lang={l.code}>
          {l.name}
        </option>
      ))}
    </Select>
  )
}

function ThemeToggle() {
  const { t } = useTranslation()
  const theme = useThemeStore((s) => s.theme)
  const toggle = useThemeStore((s) => s.toggleTheme)
  const light = resolveTheme(theme) === 'light'
  return (
    <button type="button" className="icon-button" aria-label={t('header.toggleTheme')} title={t(`theme.${theme}`)} onClick={toggle}>
      {light ? <MoonIcon /> : <SunIcon />}
    </button>
  )
}

function Account() {
  const { t } = useTranslation()
  useSessionSync()
  const user = useAuthStore((s) => s.user)
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated)
  const [leaving, setLeaving] = useState(false)
  const signedIn = isAuthenticated && !!user
  const onLogout = () => {
    setLeaving(true)
    void logout().finally(() => setLeaving(false))
  }
  // The LoginButton stays in the same place signed in or out, so the
  // sign-in dialog it opened outlives the sign-in for its second prompt.
  return (
    <>
      <LoginButton signedIn={signedIn} />
      {signedIn && (
        <div className="account">
          <MessagesBadge />
          <NotificationBadge />
          <PreloadLink to="/profile" className="btn btn-ghost btn-sm" title={user.displayName || undefined}>
            {user.username}
          </PreloadLink>
          {user.isAdmin && (
            <PreloadLink to="/admin" className="btn btn-ghost btn-sm">
              {t('header.admin')}
            </PreloadLink>
          )}
          <Button size="sm" variant="ghost" onClick={() => go('/settings')} onMouseEnter={() => preloadPath('/settings')}>
            {t('header.settings')}
          </Button>
          <Button size="sm" variant="outline" onClick={onLogout} disabled={leaving}>
            {t('header.logout')}
          </Button>
        </div>
      )}
    </>
  )
}

function SunIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  )
}

function MoonIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </svg>
  )
}
