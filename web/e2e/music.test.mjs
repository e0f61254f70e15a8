// The music player: the round button, the hover panel, track order, the
// audio files, and autoplay under both browser policies.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectEventually, expectVisible, fatal, launchBrowser, openPage, useNodeAndBrowser, waitFor, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()

/**
 * Playwright runs its page evaluations with a user gesture, which gives the
 * page user activation and so lets the app's autoplay through. Tests that
 * need a paused player install this shim: play() is refused (as a browser
 * blocking autoplay does) until a real pointer or key press.
 */
function requireRealGesture() {
  let gestured = false
  for (const type of ['pointerdown', 'keydown']) {
    addEventListener(type, (e) => {
      if (e.isTrusted) gestured = true
    }, true)
  }
  const realPlay = HTMLMediaElement.prototype.play
  HTMLMediaElement.prototype.play = function play() {
    if (!gestured) {
      return Promise.reject(new DOMException("play() failed because the user didn't interact with the document first.", 'NotAllowedError'))
    }
    return realPlay.call(this)
  }
}

/** A page with a paused player (see requireRealGesture). */
async function quietPage(t, options) {
  const opened = await openPage(t, env.browser, env.node.url, options)
  await opened.page.addInitScript(requireRealGesture)
  return opened
}

const TRACKS = ['Polyhymnia', 'The One', 'Unexpected Directions', 'Vulcan']

const roundButton = (page) => page.locator('.music-button')
const panel = (page) => page.getByRole('group', { name: 'Music player' })
const trackName = (page) => panel(page).locator('.music-track')

function audioState(page) {
  return page.locator('audio').evaluate((a) => ({ src: a.currentSrc || a.src, paused: a.paused, time: a.currentTime, volume: a.volume, error: a.error?.code ?? null }))
}

/** Waits until the audio element is really playing; fails at once if the track cannot load. */
async function expectPlaying(page, what = 'the audio to play') {
  await waitFor(async () => {
    const a = await audioState(page)
    if (a.error !== null) throw fatal(`${what}: ${a.src} failed to load (MediaError code ${a.error})`)
    return a.src.includes('/music/') && !a.paused && a.time > 0
  }, { message: what })
}

async function openPanel(page) {
  await roundButton(page).hover()
  await expectVisible(panel(page).getByRole('button', { name: 'Next track' }))
}

describe('music player', () => {
  test('the round Play button is fixed at the bottom right', TIMEOUT, async (t) => {
    const viewport = { width: 1280, height: 800 }
    const { page } = await quietPage(t, { viewport })
    await page.goto('/')
    await waitForShell(page)
    const button = roundButton(page)
    await expectVisible(button)
    assert.equal(await button.getAttribute('aria-label'), 'Play')
    await expectVisible(page.getByRole('button', { name: 'Play', exact: true }))
    const box = await button.boundingBox()
    assert.ok(viewport.width - (box.x + box.width) <= 40, `button near the right edge (x=${box.x}, w=${box.width})`)
    assert.ok(viewport.height - (box.y + box.height) <= 40, `button near the bottom edge (y=${box.y}, h=${box.height})`)
    assert.ok(Math.abs(box.width - box.height) < 1, 'the button is round (square box)')
    assert.equal(await button.evaluate((el) => getComputedStyle(el).borderRadius), '50%')
    assert.equal(await page.locator('.music-player').evaluate((el) => getComputedStyle(el).position), 'fixed')
    // It stays there while the page scrolls.
    await page.mouse.move(400, 400)
    await waitFor(async () => {
      await page.mouse.wheel(0, 600)
      return page.evaluate(() => window.scrollY > 0)
    }, { message: 'the page to scroll' })
    assert.deepEqual(await button.boundingBox(), box)
  })

  test('hovering opens the panel: track name, previous, play, next and the volume slider', TIMEOUT, async (t) => {
    const { page } = await quietPage(t)
    await page.goto('/')
    await waitForShell(page)
    assert.equal(await panel(page).getByRole('button', { name: 'Next track' }).isVisible(), false, 'the panel is closed before hovering')
    await openPanel(page)
    assert.equal(await trackName(page).innerText(), 'Polyhymnia')
    await expectVisible(panel(page).getByRole('button', { name: 'Previous track' }))
    await expectVisible(panel(page).getByRole('button', { name: 'Play', exact: true }))
    await expectVisible(panel(page).getByRole('button', { name: 'Next track' }))
    const volume = panel(page).getByRole('slider', { name: 'Volume' })
    await expectVisible(volume)
    assert.deepEqual(
      await volume.evaluate((el) => ({ min: el.min, max: el.max, step: el.step, value: el.value })),
      { min: '0', max: '1', step: '0.1', value: '0.5' },
    )
    assert.equal((await audioState(page)).volume, 0.5, 'the audio plays at half volume')
    await volume.fill('0.8')
    await expectEventually(async () => (await audioState(page)).volume, 0.8, { message: 'the audio volume to follow the slider' })
    assert.equal(await volume.inputValue(), '0.8')

    // Moving away (with focus elsewhere) closes the panel again.
    await volume.blur()
    await page.mouse.move(10, 400)
    await waitFor(async () => !(await panel(page).getByRole('button', { name: 'Next track' }).isVisible()), { message: 'the panel to close' })
  })

  test('Next and Previous walk the four tracks in order and wrap around', TIMEOUT, async (t) => {
    const { page } = await quietPage(t)
    await page.goto('/')
    await waitForShell(page)
    await openPanel(page)
    const next = panel(page).getByRole('button', { name: 'Next track' })
    const seen = [await trackName(page).innerText()]
    const srcs = [new URL((await audioState(page)).src).pathname]
    for (let i = 0; i < 4; i++) {
      await next.click()
      await expectEventually(() => trackName(page).innerText(), TRACKS[(i + 1) % 4])
      seen.push(await trackName(page).innerText())
      // The audio element takes its new source just after the name renders.
      const before = srcs[srcs.length - 1]
      let src = before
      await waitFor(async () => (src = new URL((await audioState(page)).src).pathname) !== before, { message: 'the audio source to follow the track' })
      srcs.push(src)
    }
    assert.deepEqual(seen, [...TRACKS, 'Polyhymnia'])
    assert.equal(new Set(srcs.slice(0, 4)).size, 4, `each track has its own file: ${srcs.join(', ')}`)
    assert.equal(srcs[4], srcs[0], 'wrapping around returns to the first file')

    await panel(page).getByRole('button', { name: 'Previous track' }).click()
    await expectEventually(() => trackName(page).innerText(), 'Vulcan')
    await panel(page).getByRole('button', { name: 'Previous track' }).click()
    await expectEventually(() => trackName(page).innerText(), 'Unexpected Directions')
  })

  test('the tracks are served from the site itself as audio/mpeg', TIMEOUT, async (t) => {
    const { page } = await quietPage(t)
    await page.goto('/')
    await waitForShell(page)
    await openPanel(page)
    const problems = []
    for (let i = 0; i < 4; i++) {
      const src = new URL((await audioState(page)).src)
      if (src.origin !== env.node.url) problems.push(`${TRACKS[i]}: served from ${src.origin}`)
      if (!src.pathname.startsWith('/music/')) problems.push(`${TRACKS[i]}: path ${src.pathname} is not under /music/`)
      const res = await fetch(src)
      const body = Buffer.from(await res.arrayBuffer())
      if (res.status !== 200) problems.push(`${src.pathname}: HTTP ${res.status}`)
      else {
        if (res.headers.get('content-type') !== 'audio/mpeg') problems.push(`${src.pathname}: content-type ${res.headers.get('content-type')}`)
        if (body.length === 0 || body.length >= 400 * 1024) problems.push(`${src.pathname}: ${body.length} bytes (want 1 B..400 KB)`)
        const mp3 = body.subarray(0, 3).toString('latin1') === 'ID3' || (body[0] === 0xff && (body[1] & 0xe0) === 0xe0)
        if (!mp3) problems.push(`${src.pathname}: not an MP3 stream`)
      }
      await panel(page).getByRole('button', { name: 'Next track' }).click()
    }
    assert.deepEqual(problems, [])
  })

  test('with the default autoplay policy it stays Play once the autoplay is refused, and a click plays', TIMEOUT, async (t) => {
    const { page, pageErrors, consoleMessages } = await openPage(t, env.browser, env.node.url)
    await page.goto('/')
    // Hands off until the app has tried to autoplay and logged the refusal:
    // any Playwright evaluation would count as a user gesture, so this waits on
    // the console messages the page has sent, not on the page.
    const refused = (m) => /NotAllowedError|didn't interact/.test(m.text)
    await waitFor(() => consoleMessages.some(refused), { message: 'the app to try to autoplay and log the refusal' })
    assert.equal(await roundButton(page).getAttribute('aria-label'), 'Play', 'still Play after the refused autoplay')
    assert.equal((await audioState(page)).paused, true)
    assert.deepEqual(pageErrors.map((e) => e.message), [], 'a blocked autoplay is only logged')

    await roundButton(page).click()
    await expectPlaying(page, 'the audio to play after a click')
    await expectEventually(() => roundButton(page).getAttribute('aria-label'), 'Pause', { message: 'the button to say Pause after a click' })

    // Playback resumes on the next track after a change.
    await openPanel(page)
    await panel(page).getByRole('button', { name: 'Next track' }).click()
    await expectEventually(() => trackName(page).innerText(), 'The One')
    await expectPlaying(page, 'the next track to play on')
    await expectEventually(() => roundButton(page).getAttribute('aria-label'), 'Pause')

    // When a track ends, the next one plays.
    await waitFor(() => page.locator('audio').evaluate((a) => Number.isFinite(a.duration) && a.duration > 1), { message: 'the track duration to be known' })
    await page.locator('audio').evaluate((a) => {
      a.currentTime = a.duration - 0.3
    })
    await expectEventually(() => trackName(page).innerText(), 'Unexpected Directions', { message: 'the next track after the end' })
    await expectPlaying(page, 'the following track to play')

    await roundButton(page).click()
    await expectEventually(() => roundButton(page).getAttribute('aria-label'), 'Play')
    assert.equal((await audioState(page)).paused, true)
  })

  test('when the browser allows autoplay, playback starts about 1 s after load', TIMEOUT, async (t) => {
    const browser = await launchBrowser(['--autoplay-policy=no-user-gesture-required'])
    t.after(() => browser.close())
    const { page } = await openPage(t, browser, env.node.url)
    await page.addInitScript(() => {
      document.addEventListener('play', () => (window.__playedAt ??= performance.now()), true)
    })
    await page.goto('/')
    await waitForShell(page)
    await expectPlaying(page, 'autoplay')
    await expectEventually(() => roundButton(page).getAttribute('aria-label'), 'Pause', { message: 'the button to say Pause' })
    const { playedAt, responseEnd } = await page.evaluate(() => ({
      playedAt: window.__playedAt,
      responseEnd: performance.getEntriesByType('navigation')[0].responseEnd,
    }))
    const delay = playedAt - responseEnd
    assert.ok(delay >= 1000, `autoplay waited ${Math.round(delay)} ms after the page arrived (want about 1000)`)
    assert.ok(delay < 4000, `autoplay started ${Math.round(delay)} ms after the page arrived (want about 1000)`)
    assert.equal(await page.locator('.music-track').textContent(), 'Polyhymnia')
  })
})
