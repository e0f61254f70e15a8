import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
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
import { HeaderIcon } from './HeaderIcons'
import { preloadPath } from './preload'

export const NAV_PAGES = ['home', 'about', 'explore', 'governance', 'rewards'] as const

/** The active nav item is the first path segment; the root is home. */
export function activePage(pathname: string): string {
  return pathname.split('/').filter(Boolean)[0] ?? 'home'
}

/**
 * The fixed header. On a wide screen it is one row: brand, navigation, tools
 * and account. Below the wide breakpoint (styles.css) the navigation,
 * language, theme and account move into a drawer behind a menu button, and the
 * row keeps only the brand, the unread badges and Login.
 */
export function Header() {
  const { t } = useTranslation()
  const signedIn = useSignedIn()
  const [open, setOpen] = useState(false)
  const drawerId = useId()
  const header = useHeaderHeight()
  return (
    <header className="header" ref={header}>
      <div className="header-inner container">
        <MenuButton open={open} controls={drawerId} onToggle={() => setOpen((o) => !o)} />
        <a className="brand" href="/" onMouseEnter={() => preloadPath('/')}>
          <Logo />
          <span className="brand-text">
            <span className="brand-name">dForge</span>
            <span className="brand-tagline">{t('app.tagline')}</span>
          </span>
        </a>
        <Nav className="header-wide" />
        <div className="header-tools">
          <div className="header-wide header-group">
            <LanguageSelect />
            <ThemeToggle />
          </div>
          {/* The LoginButton stays in the row signed in or out, so the sign-in
              dialog it opened outlives the sign-in for its second prompt. */}
          <LoginButton signedIn={signedIn} />
          {signedIn && (
            <>
              <MessagesBadge />
              <NotificationBadge />
              <AccountLinks className="header-wide" />
            </>
          )}
        </div>
      </div>
      {open && <Drawer id={drawerId} signedIn={signedIn} onClose={() => setOpen(false)} />}
    </header>
  )
}

function useSignedIn(): boolean {
  useSessionSync()
  const user = useAuthStore((s) => s.user)
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated)
  return isAuthenticated && !!user
}

/**
 * Publishes the header's height as --header-height, which the main area's
 * top padding reads: whatever the header holds (a long name, a long
 * translation), it never covers a page's heading. It is written only when it
 * changes, from the size the observer reports after layout: a custom property
 * on the root restyles the whole page, and reading offsetHeight during a
 * render forces a layout (together they were a pull request page's longest
 * task).
 */
function useHeaderHeight() {
  const ref = useRef<HTMLElement | null>(null)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    let published = ''
    const publish = (height: number) => {
      const value = `${Math.round(height)}px`
      if (value === published) return
      published = value
      document.documentElement.style.setProperty('--header-height', value)
    }
    if (typeof ResizeObserver === 'undefined') {
      publish(el.offsetHeight)
      return
    }
    const observer = new ResizeObserver(([entry]) => publish(entry.borderBoxSize?.[0]?.blockSize ?? el.offsetHeight))
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return ref
}

function MenuButton({ open, controls, onToggle }: { open: boolean; controls: string; onToggle: () => void }) {
  const { t } = useTranslation()
  return (
    <button
      type="button"
      className="icon-button menu-button"
      aria-label={t('header.menu')}
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      <HeaderIcon name={open ? 'close' : 'menu'} />
    </button>
  )
}

/** The narrow screen's menu: navigation, account, language and theme. Escape or a click outside closes it. */
function Drawer({ id, signedIn, onClose }: { id: string; signedIn: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const ref = useRef<HTMLDivElement | null>(null)
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('a, button, select')?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose()
    }
    const onPointer = (e: PointerEvent) => {
      const header = ref.current?.closest('header')
      if (header && !header.contains(e.target as Node)) onClose()
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onPointer)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('pointerdown', onPointer)
    }
  }, [onClose])
  return (
    <div className="header-drawer" id={id} ref={ref}>
      <div className="container header-drawer-inner">
        <Nav className="drawer-nav" />
        {signedIn && <AccountLinks className="drawer-account" labelled />}
        <div className="drawer-tools" role="group" aria-label={t('header.preferences')}>
          <LanguageSelect />
          <ThemeToggle />
        </div>
      </div>
    </div>
  )
}

function Nav({ className }: { className: string }) {
  const { t } = useTranslation()
  const active = activePage(useRoute().pathname)
  return (
    <nav className={`nav ${className}`} aria-label={t('nav.label')}>
      {NAV_PAGES.map((page) => {
        const path = `/${page}`
        return (
          <a
            key={page}
            href={path}
            className={`nav-item${active === page ? ' active' : ''}`}
            aria-current={active === page ? 'page' : undefined}
            onMouseEnter={() => preloadPath(path)}
            onFocus={() => preloadPath(path)}
          >
            {t(`nav.${page}`)}
          </a>
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
      <HeaderIcon name={light ? 'moon' : 'sun'} />
    </button>
  )
}

/**
 * The profile button with the username, Admin for admins, Settings and
 * Logout. In the row they are icons with their names as labels; in the
 * drawer (labelled) the names are written out.
 */
function AccountLinks({ className, labelled = false }: { className: string; labelled?: boolean }) {
  const { t } = useTranslation()
  const user = useAuthStore((s) => s.user)
  const [leaving, setLeaving] = useState(false)
  if (!user) return null
  const onLogout = () => {
    setLeaving(true)
    void logout().finally(() => setLeaving(false))
  }
  const item = labelled ? 'drawer-item' : 'icon-button'
  return (
    <div className={`account ${className}`}>
      <PreloadLink to="/profile" className={labelled ? 'drawer-item' : 'btn btn-ghost btn-sm account-name'} title={user.displayName || user.username}>
        {user.username}
      </PreloadLink>
      {user.isAdmin && (
        <PreloadLink to="/admin" className={item} aria-label={labelled ? undefined : t('header.admin')} title={t('header.admin')}>
          <HeaderIcon name="shield" />
          {labelled && t('header.admin')}
        </PreloadLink>
      )}
      <a
        href="/settings"
        className={item}
        aria-label={labelled ? undefined : t('header.settings')}
        title={t('header.settings')}
        onMouseEnter={() => preloadPath('/settings')}
        onFocus={() => preloadPath('/settings')}
      >
        <HeaderIcon name="gear" />
        {labelled && t('header.settings')}
      </a>
      <button type="button" className={item} aria-label={labelled ? undefined : t('header.logout')} title={t('header.logout')} onClick={onLogout} disabled={leaving}>
        <HeaderIcon name="logout" />
        {labelled && t('header.logout')}
      </button>
    </div>
  )
}
