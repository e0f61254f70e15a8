// Language: the selector, switching at runtime, detection and fallback.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectEventually, expectVisible, localeFile, openPage, useNodeAndBrowser, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()

const LANGUAGES = [
  ['en', 'English'],
  ['zh', '简体中文'],
  ['zh-TW', '繁體中文'],
  ['ja', '日本語'],
  ['ko', '한국어'],
  ['es', 'Español'],
  ['fr', 'Français'],
  ['de', 'Deutsch'],
  ['ru', 'Русский'],
]

function state(page) {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    stored: localStorage.getItem('i18nextLng'),
    selected: document.querySelector('header select')?.value,
  }))
}

const nav = (page) => page.locator('header').getByRole('navigation')

/** Checks the English shell text a visitor sees. */
async function expectEnglish(page) {
  for (const name of ['Home', 'About', 'Explore', 'Governance', 'Rewards']) {
    await expectVisible(nav(page).getByRole('link', { name, exact: true }))
  }
  await expectVisible(page.getByRole('button', { name: 'Toggle theme' }))
  await expectVisible(page.getByRole('combobox', { name: 'Language' }))
  await expectVisible(page.getByText('Decentralized Open Source Platform'))
}

describe('language', () => {
  test('the Language selector lists the nine languages, each named in itself', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, { locale: 'en-US' })
    await page.goto('/')
    await waitForShell(page)
    const select = page.getByRole('combobox', { name: 'Language' })
    await expectVisible(select)
    const options = await select.locator('option').evaluateAll((os) => os.map((o) => [o.value, o.textContent.trim()]))
    assert.deepEqual(options, LANGUAGES)
    assert.equal(await select.inputValue(), 'en')
  })

  test('picking Deutsch switches the interface to German at runtime and is remembered', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, { locale: 'en-US' })
    await page.goto('/')
    await waitForShell(page)
    await expectEnglish(page)
    await page.evaluate(() => {
      window.__marker = 1
    })
    await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Deutsch' })
    await expectEventually(() => state(page), { lang: 'de', stored: 'de', selected: 'de' })
    assert.equal(await page.evaluate(() => window.__marker), 1, 'switching language does not reload the page')

    await page.reload()
    await waitForShell(page)
    await expectEventually(() => state(page), { lang: 'de', stored: 'de', selected: 'de' }, { message: 'German kept after reload' })

    // The German interface text comes from the German locale file.
    const de = localeFile('de')
    const en = localeFile('en')
    assert.ok(de, 'web/src/i18n/locales/de/common.json must exist: German translations are missing')
    const changed = [
      ['nav', 'home'],
      ['nav', 'governance'],
      ['nav', 'rewards'],
      ['nav', 'about'],
    ].filter(([g, k]) => de[g]?.[k] && de[g][k] !== en[g][k])
    assert.ok(changed.length > 0, 'German nav labels differ from English')
    for (const [g, k] of changed) {
      await expectVisible(nav(page).getByRole('link', { name: de[g][k], exact: true }))
    }
    await expectVisible(page.getByText(de.app.tagline, { exact: true }))
    assert.equal(await nav(page).getByRole('link', { name: en.nav[changed[0][1]], exact: true }).count(), 0, 'the English label is gone')
  })

  for (const locale of ['zh-HK', 'zh-MO']) {
    test(`a ${locale} browser resolves to Traditional Chinese (zh-TW)`, TIMEOUT, async (t) => {
      const { page } = await openPage(t, env.browser, env.node.url, { locale })
      await page.goto('/')
      await waitForShell(page)
      assert.equal(await page.evaluate(() => navigator.language), locale)
      await expectEventually(() => state(page), { lang: 'zh-TW', stored: 'zh-TW', selected: 'zh-TW' })
      const zhTW = localeFile('zh-TW')
      assert.ok(zhTW, 'web/src/i18n/locales/zh-TW/common.json must exist')
      await expectVisible(nav(page).getByRole('link', { name: zhTW.nav.governance, exact: true }))
      await expectVisible(page.getByText(zhTW.app.tagline, { exact: true }))
    })
  }

  test('a French (Canada) browser resolves to French', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, { locale: 'fr-CA' })
    await page.goto('/')
    await waitForShell(page)
    await expectEventually(() => state(page), { lang: 'fr', stored: 'fr', selected: 'fr' })
    const fr = localeFile('fr')
    assert.ok(fr, 'web/src/i18n/locales/fr/common.json must exist')
    await expectVisible(page.getByRole('button', { name: fr.header.toggleTheme, exact: true }))
  })

  for (const locale of ['sw-KE', 'pt-BR']) {
    test(`an unsupported browser locale (${locale}) falls back to English`, TIMEOUT, async (t) => {
      const { page } = await openPage(t, env.browser, env.node.url, { locale })
      await page.goto('/')
      await waitForShell(page)
      await expectEnglish(page)
      await expectEventually(() => state(page), { lang: 'en', stored: 'en', selected: 'en' })
    })
  }
})
