// Theme: default, toggle, persistence, system preference and bad storage.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectEventually, openPage, useNodeAndBrowser, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()
const KEY = 'theme-storage'
const THEME_CLASSES = ['light', 'dark', 'dark-warm']

/** The theme classes on <html> and the colour scheme the app set inline. */
function themeOf(page) {
  return page.evaluate((classes) => {
    const root = document.documentElement
    return { classes: [...root.classList].filter((c) => classes.includes(c)), colorScheme: root.style.colorScheme }
  }, THEME_CLASSES)
}

async function expectTheme(page, cls) {
  await expectEventually(() => themeOf(page), { classes: [cls], colorScheme: cls === 'light' ? 'light' : 'dark' }, {
    message: `only the ${cls} theme class on <html>`,
  })
}

function stored(page) {
  return page.evaluate((key) => localStorage.getItem(key), KEY)
}

/** Puts a raw value under theme-storage before the app starts (first load only). */
async function seedTheme(page, raw) {
  await page.addInitScript(([key, value]) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem(key, value)
      sessionStorage.setItem('seeded', '1')
    }
  }, [KEY, raw])
}

/** Mean of the RGB channels of a CSS rgb()/rgba() colour. */
function brightness(css) {
  const [r, g, b] = css.match(/\d+(\.\d+)?/g).map(Number)
  return (r + g + b) / 3
}

const persisted = (theme) => JSON.stringify({ state: { theme }, version: 0 })

describe('theme', () => {
  test('with no storage the theme is dark-warm', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    await page.goto('/')
    await waitForShell(page)
    await expectTheme(page, 'dark-warm')
    const toggle = page.getByRole('button', { name: 'Toggle theme' })
    assert.equal(await toggle.getAttribute('title'), 'Dark warm')
  })

  test('Toggle theme switches dark-warm and light, persists the choice, and a reload keeps it', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    await page.goto('/')
    await waitForShell(page)
    const toggle = page.getByRole('button', { name: 'Toggle theme' })
    await toggle.click()
    await expectTheme(page, 'light')
    const saved = JSON.parse(await stored(page))
    assert.equal(saved.state.theme, 'light')
    assert.deepEqual(Object.keys(saved.state), ['theme'], 'only the theme is persisted')
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
    assert.ok(brightness(bg) > 200, `the light theme paints a light background (${bg})`)

    await page.reload()
    await waitForShell(page)
    await expectTheme(page, 'light')
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), bg, 'the light colours are back after reload')

    await page.getByRole('button', { name: 'Toggle theme' }).click()
    await expectTheme(page, 'dark-warm')
    assert.equal(JSON.parse(await stored(page)).state.theme, 'dark-warm')
    const dark = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
    assert.ok(brightness(dark) < 80, `the dark-warm theme paints a dark background (${dark})`)
  })

  test('stored system follows the colour-scheme preference, also when it changes', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    await seedTheme(page, persisted('system'))
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto('/')
    await waitForShell(page)
    await expectTheme(page, 'dark-warm')
    await page.emulateMedia({ colorScheme: 'light' })
    await expectTheme(page, 'light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await expectTheme(page, 'dark-warm')

    const fresh = await openPage(t, env.browser, env.node.url, { colorScheme: 'light' })
    await seedTheme(fresh.page, persisted('system'))
    await fresh.page.goto('/')
    await waitForShell(fresh.page)
    await expectTheme(fresh.page, 'light')
    // Toggling from system (showing light) goes to dark-warm.
    await fresh.page.getByRole('button', { name: 'Toggle theme' }).click()
    await expectTheme(fresh.page, 'dark-warm')
    assert.equal(JSON.parse(await stored(fresh.page)).state.theme, 'dark-warm')
  })

  test('stored dark gives the dark class and ignores the colour-scheme preference', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, { colorScheme: 'dark' })
    await seedTheme(page, persisted('dark'))
    await page.goto('/')
    await waitForShell(page)
    await expectTheme(page, 'dark')
    // The app's listener was added at start-up; listeners on older media query
    // lists hear a change first, so once this one has, the app has too.
    await page.evaluate(() => {
      window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => (window.__schemeChanged = true), { once: true })
    })
    await page.emulateMedia({ colorScheme: 'light' })
    await page.waitForFunction(() => window.__schemeChanged === true)
    await expectTheme(page, 'dark')
    // From dark the toggle goes to light.
    await page.getByRole('button', { name: 'Toggle theme' }).click()
    await expectTheme(page, 'light')
  })

  for (const [label, raw] of [
    ['not JSON', 'not json'],
    ['an unknown theme', persisted('purple')],
    ['a state without a theme', JSON.stringify({ state: {}, version: 0 })],
  ]) {
    test(`an unreadable stored value (${label}) gives dark-warm`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await openPage(t, env.browser, env.node.url, { colorScheme: 'light' })
      await seedTheme(page, raw)
      await page.goto('/')
      await waitForShell(page)
      await expectTheme(page, 'dark-warm')
      assert.equal(await page.getByRole('button', { name: 'Toggle theme' }).getAttribute('title'), 'Dark warm')
      assert.deepEqual(pageErrors.map((e) => e.message), [])
      await page.getByRole('button', { name: 'Toggle theme' }).click()
      await expectTheme(page, 'light')
      assert.equal(JSON.parse(await stored(page)).state.theme, 'light', 'the bad value is replaced')
    })
  }
})
