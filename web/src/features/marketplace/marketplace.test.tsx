import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { matchRoute } from '@/lib/routes'
import { json, preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { repoFixture, stubApi } from '@/test/forge'
import type { Install, Listing } from './api'
import MarketplaceScreen from './MarketplaceScreen'
import { urlTemplateError, validateListing } from './validate'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('marketplace', 'wallet')

const LISTINGS = '/api/v1/marketplace/listings'

const CI: Listing = {
  id: 4,
  name: 'Build Bot',
  description: 'Builds every push.',
  events: ['push', 'pull_request'],
  url_template: 'https://ci.example/hooks/{owner}/{repo}',
  homepage: 'https://ci.example',
  publisher: schemaFixture('ForgeUser', { id: 9, login: 'grace' }),
  installs: 3,
  deleted: false,
  created_at: '2026-01-02T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
}

const page = (items: Listing[]) => new Response(JSON.stringify(items), { headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(items.length) } })

describe('marketplace routes', () => {
  it('serves /marketplace and /marketplace/:id', () => {
    expect(matchRoute('/marketplace').screen).toBe('marketplace')
    expect(matchRoute('/marketplace/4')).toMatchObject({ screen: 'marketplace', params: { id: '4' } })
  })
})

describe('MarketplaceScreen', () => {
  it('lists listings with their install counts, publisher and homepage, and searches', async () => {
    const api = stubApi({ [`GET ${LISTINGS}`]: () => page([CI]) })
    renderScreen(<MarketplaceScreen />, '/marketplace')
    const link = await screen.findByRole('link', { name: 'Build Bot' })
    expect(link.getAttribute('href')).toBe('/marketplace/4')
    expect(screen.getByText('3 installs')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'grace' }).getAttribute('href')).toBe('/user/grace')
    expect(screen.getByRole('link', { name: 'Homepage: Build Bot' }).getAttribute('href')).toBe('https://ci.example')
    // Signed out: no publish button, a hint instead.
    expect(screen.queryByRole('button', { name: 'Publish a listing' })).toBeNull()
    expect(screen.getByText('Sign in to publish or install a listing.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Search listings'), { target: { value: 'bot' } })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(api.calls.some((c) => c.url.startsWith(`${LISTINGS}?`) && c.url.includes('q=bot'))).toBe(true))
  })

  it('shows the empty state and a load error with a retry', async () => {
    stubApi({ [`GET ${LISTINGS}`]: () => page([]) })
    const { unmount } = renderScreen(<MarketplaceScreen />, '/marketplace')
    expect(await screen.findByText('No listings yet. Publish the first one.')).toBeTruthy()
    unmount()
    stubApi({ [`GET ${LISTINGS}`]: () => json({ message: 'down', code: 'internal' }, 500) })
    renderScreen(<MarketplaceScreen />, '/marketplace')
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy()
  })

  it('refuses a bad URL template and no events before sending, then publishes', async () => {
    let sent: unknown
    const api = stubApi({
      [`GET ${LISTINGS}`]: () => page([]),
      [`POST ${LISTINGS}`]: (body: unknown) => {
        sent = body
        return json({ ...CI, id: 5, name: 'Chat' }, 201)
      },
    })
    signIn()
    renderScreen(<MarketplaceScreen />, '/marketplace')
    fireEvent.click(await screen.findByRole('button', { name: 'Publish a listing' }))
    const dialog = await screen.findByRole('dialog', { name: 'Publish a listing' })
    const form = within(dialog)
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Chat' } })
    fireEvent.change(form.getByLabelText('Webhook URL template'), { target: { value: 'ftp://chat.example/{repo}' } })
    fireEvent.click(form.getByRole('checkbox', { name: 'Push' })) // the only event, now off
    fireEvent.click(form.getByRole('button', { name: 'Publish' }))
    expect(await form.findByText('Enter an absolute http:// or https:// address.')).toBeTruthy()
    expect(form.getByText('Choose at least one event.')).toBeTruthy()
    expect(form.getByLabelText('Webhook URL template').getAttribute('aria-invalid')).toBe('true')
    expect(api.sent('POST', LISTINGS)).toHaveLength(0)

    fireEvent.change(form.getByLabelText('Webhook URL template'), { target: { value: 'https://chat.example/{owner}/{branch}' } })
    fireEvent.click(form.getByRole('button', { name: 'Publish' }))
    expect(await form.findByText('Only {owner}, {repo} and {repo_id} may appear in braces.')).toBeTruthy()

    fireEvent.change(form.getByLabelText('Webhook URL template'), { target: { value: 'https://chat.example/{owner}/{repo}' } })
    fireEvent.click(form.getByRole('checkbox', { name: 'Issues' }))
    fireEvent.click(form.getByRole('button', { name: 'Publish' }))
    expect(await form.findByText('Chat is published.')).toBeTruthy()
    expect(sent).toEqual({ name: 'Chat', description: '', events: ['issues'], url_template: 'https://chat.example/{owner}/{repo}', homepage: '' })
    expect(form.getByRole('link', { name: 'View the listing' }).getAttribute('href')).toBe('/marketplace/5')
  })

  it("shows the server's refusal under the field it names", async () => {
    stubApi({
      [`GET ${LISTINGS}`]: () => page([]),
      [`POST ${LISTINGS}`]: () => json({ message: 'a listing named "Build Bot" exists already', code: 'name_taken', field: 'name' }, 409),
    })
    signIn()
    renderScreen(<MarketplaceScreen />, '/marketplace')
    fireEvent.click(await screen.findByRole('button', { name: 'Publish a listing' }))
    const form = within(await screen.findByRole('dialog'))
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Build Bot' } })
    fireEvent.change(form.getByLabelText('Webhook URL template'), { target: { value: 'https://ci.example/' } })
    fireEvent.click(form.getByRole('button', { name: 'Publish' }))
    expect(await form.findByText('a listing named "Build Bot" exists already')).toBeTruthy()
    expect(form.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true')
  })
})

describe('a listing', () => {
  const ADA = '/api/v1/repos/ada/engine'
  const repos = [
    repoFixture({ permissions: { admin: true, push: true, pull: true, maintain: true } }),
    repoFixture({ id: 8, name: 'vault', full_name: 'ada/vault', private: true, permissions: { admin: true, push: true, pull: true, maintain: true } }),
    repoFixture({ id: 9, name: 'shared', full_name: 'ada/shared', permissions: schemaFixture('Perm', { admin: false, push: true, pull: true }) }),
  ]

  it('shows its events and URL template, and installs into a repository the user administers', async () => {
    let sent: unknown
    const api = stubApi({
      [`GET ${LISTINGS}/4`]: CI,
      'GET /api/v1/user/repos': repos,
      [`POST ${ADA}/marketplace/installs`]: (body: unknown) => {
        sent = body
        return json({ listing: { ...CI, installs: 4 }, repo_id: 7, installer: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), hook_id: 12, created_at: '2026-01-03T00:00:00Z' } satisfies Install, 201)
      },
    })
    signIn()
    renderScreen(<MarketplaceScreen />, '/marketplace/4')
    expect(await screen.findByRole('heading', { level: 1, name: 'Build Bot' })).toBeTruthy()
    expect(screen.getByText('https://ci.example/hooks/{owner}/{repo}')).toBeTruthy()
    expect(screen.getByText('pull_request')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Install' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Install Build Bot' }))
    // Only public repositories the user administers are offered.
    const radios = await dialog.findAllByRole('radio')
    expect(radios.map((r) => r.closest('label')?.textContent?.trim())).toEqual(['ada/engine'])
    const submit = dialog.getByRole('button', { name: 'Install' })
    expect((submit as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(radios[0])
    fireEvent.click(submit)
    expect(await dialog.findByText('Installed into ada/engine. Its webhook is active.')).toBeTruthy()
    expect(sent).toEqual({ listing: 4 })
    expect(dialog.getByRole('link', { name: "See the repository's webhooks" }).getAttribute('href')).toBe('/ada/engine/settings/hooks')
    expect(api.sent('POST', `${ADA}/marketplace/installs`)).toHaveLength(1)
  })

  it('says why an install failed and keeps the dialog open', async () => {
    stubApi({
      [`GET ${LISTINGS}/4`]: CI,
      'GET /api/v1/user/repos': repos,
      [`POST ${ADA}/marketplace/installs`]: () => json({ message: 'Build Bot is installed in engine already', code: 'conflict' }, 409),
    })
    signIn()
    renderScreen(<MarketplaceScreen />, '/marketplace/4')
    fireEvent.click(await screen.findByRole('button', { name: 'Install' }))
    const dialog = within(await screen.findByRole('dialog'))
    fireEvent.click(await dialog.findByRole('radio', { name: 'ada/engine' }))
    fireEvent.click(dialog.getByRole('button', { name: 'Install' }))
    expect(await dialog.findByText('Could not install: Build Bot is installed in engine already')).toBeTruthy()
  })

  it('tells a user without a public repository they administer that there is nowhere to install', async () => {
    stubApi({ [`GET ${LISTINGS}/4`]: CI, 'GET /api/v1/user/repos': [repos[1], repos[2]] })
    signIn()
    renderScreen(<MarketplaceScreen />, '/marketplace/4')
    fireEvent.click(await screen.findByRole('button', { name: 'Install' }))
    expect(await screen.findByText(/You administer no public repository/)).toBeTruthy()
  })

  it('lets its publisher delete it, asked twice', async () => {
    const api = stubApi({ [`GET ${LISTINGS}/4`]: { ...CI, publisher: { id: 1, login: 'ada' } }, [`DELETE ${LISTINGS}/4`]: () => new Response(null, { status: 204 }) })
    signIn()
    renderScreen(<MarketplaceScreen />, '/marketplace/4')
    fireEvent.click(await screen.findByRole('button', { name: 'Delete listing' }))
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete it' }))
    expect(await screen.findByText('The listing is deleted.')).toBeTruthy()
    expect(api.sent('DELETE', `${LISTINGS}/4`)).toHaveLength(1)
  })

  it('is not found when deleted or unknown', async () => {
    stubApi({})
    renderScreen(<MarketplaceScreen />, '/marketplace/99')
    expect(await screen.findByRole('heading', { name: 'Listing not found' })).toBeTruthy()
    expect(screen.getByText('There is no listing #99 in the marketplace.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'All listings' }).getAttribute('href')).toBe('/marketplace')
  })
})

describe('validateListing', () => {
  const ok = { name: 'CI', description: '', events: ['push'], url_template: 'https://ci.example/{owner}/{repo}?id={repo_id}', homepage: '' }
  it('takes a listing the chain takes', () => {
    expect(validateListing(ok)).toEqual({})
  })
  it.each([
    ['javascript:alert(1)', 'httpUrl'],
    ['ftp://x.example/', 'httpUrl'],
    ['/relative', 'httpUrl'],
    ['https://user:pw@x.example/', 'httpUrl'],
    ['https://x.example/{nope}', 'braces'],
    ['https://x.example/{owner', 'braces'],
    ['', 'required'],
  ])('refuses the URL template %s (%s)', (t, want) => {
    expect(urlTemplateError(t)).toBe(want)
  })
  it('names the field at fault', () => {
    expect(validateListing({ ...ok, name: ' CI' }).name).toBe('spaces')
    expect(validateListing({ ...ok, name: 'x'.repeat(101) }).name).toBe('tooLong')
    expect(validateListing({ ...ok, events: [] }).events).toBe('noEvents')
    expect(validateListing({ ...ok, homepage: 'javascript:x' }).homepage).toBe('httpUrl')
    expect(validateListing({ ...ok, name: 'a\u0007b' }).name).toBe('control')
    expect(validateListing({ ...ok, description: 'tab\tand\nnewline' })).toEqual({})
  })
})
