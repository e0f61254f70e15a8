import { beforeEach, describe, expect, it, vi } from 'vitest'

// Each test gets a fresh module so the store rehydrates from the storage it sets up.
async function loadTheme() {
  vi.resetModules()
  return import('./theme')
}

function mockPrefersDark(dark: boolean) {
  const listeners: (() => void)[] = []
  const mql = {
    matches: dark,
    addEventListener: (_: string, fn: () => void) => listeners.push(fn),
    removeEventListener: () => {},
  }
  window.matchMedia = vi.fn().mockReturnValue(mql) as unknown as typeof window.matchMedia
  return {
    set(value: boolean) {
      mql.matches = value
      listeners.forEach((fn) => fn())
    },
  }
}

const rootClasses = () => [...document.documentElement.classList].sort()

beforeEach(() => {
  localStorage.clear()
  document.documentElement.className = ''
  mockPrefersDark(false)
})

describe('theme store', () => {
  it('defaults to dark-warm and applies it at start-up', async () => {
    const { startTheme, useThemeStore } = await loadTheme()
    startTheme()
    expect(useThemeStore.getState().theme).toBe('dark-warm')
    expect(rootClasses()).toEqual(['dark-warm'])
  })

  it('puts the theme class on the root and removes the others', async () => {
    const { useThemeStore } = await loadTheme()
    document.documentElement.classList.add('light', 'dark', 'unrelated')
    useThemeStore.getState().setTheme('dark')
    expect(rootClasses()).toEqual(['dark', 'unrelated'])
  })

  it('persists the theme as JSON with state.theme', async () => {
    const { useThemeStore, THEME_STORAGE_KEY } = await loadTheme()
    useThemeStore.getState().setTheme('light')
    expect(JSON.parse(localStorage.getItem(THEME_STORAGE_KEY)!)).toMatchObject({ state: { theme: 'light' } })
  })

  it('toggles between dark-warm and light', async () => {
    const { useThemeStore } = await loadTheme()
    useThemeStore.getState().toggleTheme()
    expect(useThemeStore.getState().theme).toBe('light')
    useThemeStore.getState().toggleTheme()
    expect(useThemeStore.getState().theme).toBe('dark-warm')
  })

  it('restores and re-applies the saved theme on rehydration', async () => {
    localStorage.setItem('theme-storage', JSON.stringify({ state: { theme: 'light' }, version: 0 }))
    const { useThemeStore } = await loadTheme()
    expect(useThemeStore.getState().theme).toBe('light')
    expect(rootClasses()).toEqual(['light'])
  })

  it.each([['not json'], [JSON.stringify({ state: { theme: 'neon' }, version: 0 })]])(
    'falls back to dark-warm when the saved value is unreadable: %s',
    async (saved) => {
      localStorage.setItem('theme-storage', saved)
      vi.spyOn(console, 'error').mockImplementation(() => {})
      const { useThemeStore } = await loadTheme()
      expect(useThemeStore.getState().theme).toBe('dark-warm')
      expect(rootClasses()).toEqual(['dark-warm'])
    },
  )

  it('follows the OS preference only while on system', async () => {
    const os = mockPrefersDark(true)
    const { startTheme, useThemeStore } = await loadTheme()
    startTheme()
    useThemeStore.getState().setTheme('system')
    expect(rootClasses()).toEqual(['dark-warm'])
    os.set(false)
    expect(rootClasses()).toEqual(['light'])
    useThemeStore.getState().setTheme('dark')
    os.set(true)
    os.set(false)
    expect(rootClasses()).toEqual(['dark'])
  })
})
