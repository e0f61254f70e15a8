import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'

export const THEMES = ['light', 'dark', 'dark-warm', 'system'] as const
export type Theme = (typeof THEMES)[number]
export type ThemeClass = Exclude<Theme, 'system'>

export const DEFAULT_THEME: Theme = 'dark-warm'
export const THEME_STORAGE_KEY = 'theme-storage'
const THEME_CLASSES: ThemeClass[] = ['light', 'dark', 'dark-warm']
const DARK_QUERY = '(prefers-color-scheme: dark)'

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value)
}

function prefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches
}

/** The class a theme puts on the document root; system follows the OS. */
export function resolveTheme(theme: Theme, dark = prefersDark()): ThemeClass {
  if (theme === 'system') return dark ? 'dark-warm' : 'light'
  return theme
}

/** Puts the theme's class on <html> and removes the other theme classes. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement
  const cls = resolveTheme(theme)
  root.classList.remove(...THEME_CLASSES.filter((c) => c !== cls))
  root.classList.add(cls)
  root.style.colorScheme = cls === 'light' ? 'light' : 'dark'
}

interface ThemeState {
  theme: Theme
  setTheme: (theme: Theme) => void
  toggleTheme: () => void
}

export const useThemeStore = create<ThemeState>()(
  persist(
    (set, get) => ({
      theme: DEFAULT_THEME,
      setTheme: (theme) => {
        applyTheme(theme)
        set({ theme })
      },
      toggleTheme: () => get().setTheme(resolveTheme(get().theme) === 'light' ? 'dark-warm' : 'light'),
    }),
    {
      name: THEME_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ theme: s.theme }),
      // A saved value that is not a theme falls back to the default.
      merge: (persisted, current) => {
        const theme = (persisted as { theme?: unknown } | undefined)?.theme
        return { ...current, theme: isTheme(theme) ? theme : DEFAULT_THEME }
      },
      onRehydrateStorage: () => (state, error) => {
        applyTheme(!error && state && isTheme(state.theme) ? state.theme : DEFAULT_THEME)
      },
    },
  ),
)

/** Applies the saved theme at start-up and follows OS changes while on system. */
export function startTheme(): void {
  applyTheme(useThemeStore.getState().theme)
  if (typeof window.matchMedia !== 'function') return
  window.matchMedia(DARK_QUERY).addEventListener('change', () => {
    const { theme } = useThemeStore.getState()
    if (theme === 'system') applyTheme(theme)
  })
}
