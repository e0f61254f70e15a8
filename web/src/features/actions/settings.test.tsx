import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { preloadNamespaces, renderScreen } from '@/test/render'
import { noContent, repoFixture, stubApi } from '@/test/forge'
import { ActionsSettings } from './ActionsSettings'
import { ACTIONS } from './testing'

preloadNamespaces('actions')

const RUNNER = { id: 5, name: 'builder-1', status: 'online', busy: false, labels: [{ name: 'ubuntu-latest' }, { name: 'self-hosted' }], version: 'v0.1', last_online: '2026-01-02T00:00:00Z' }

function stub(over: Record<string, unknown> = {}) {
  return stubApi({
    [`GET ${ACTIONS}/runners`]: { runners: [RUNNER], total_count: 1 },
    [`GET ${ACTIONS}/secrets`]: [],
    [`GET ${ACTIONS}/variables`]: [{ name: 'REGION', data: 'eu-west' }],
    ...over,
  })
}

describe('ActionsSettings', { timeout: 15_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('lists the runners and deletes one once confirmed', async () => {
    const api = stub({ [`DELETE ${ACTIONS}/runners/5`]: noContent() })
    renderScreen(<ActionsSettings repo={repoFixture()} />)
    const table = await screen.findByRole('table', { name: 'Runners' })
    const cells = within(table).getAllByRole('row')[1]
    expect(within(cells).getByText('builder-1')).toBeTruthy()
    expect(within(cells).getByText('Online')).toBeTruthy()
    expect(within(cells).getByText('self-hosted')).toBeTruthy()
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    fireEvent.click(screen.getByRole('button', { name: 'Delete runner builder-1' }))
    await waitFor(() => expect(api.sent('DELETE', `${ACTIONS}/runners/5`)).toHaveLength(1))
  })

  it('creates a registration token and shows the command that registers a runner with it', async () => {
    const api = stub({ [`POST ${ACTIONS}/runners/registration-token`]: { token: 'AbC123token' } })
    renderScreen(<ActionsSettings repo={repoFixture()} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Create registration token' }))
    const command = (await screen.findByRole('figure', { name: 'Registration command' })).querySelector('code')!
    expect(command.textContent).toBe(`dforge runner register --url ${window.location.origin} --token AbC123token --labels ubuntu-latest:host`)
    expect(api.sent('POST', `${ACTIONS}/runners/registration-token`)).toHaveLength(1)
    const writeText = vi.fn(async () => {})
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    fireEvent.click(screen.getByRole('button', { name: 'Copy command' }))
    await screen.findByRole('button', { name: 'Copied' })
    expect(writeText).toHaveBeenCalledWith(command.textContent)
  })

  it('adds a secret with PUT {data} and never shows its value', async () => {
    let secrets: { name: string; created_at: string }[] = []
    const api = stub({
      [`GET ${ACTIONS}/secrets`]: () => secrets,
      [`PUT ${ACTIONS}/secrets/DEPLOY_KEY`]: () => {
        secrets = [{ name: 'DEPLOY_KEY', created_at: '2026-01-03T00:00:00Z' }]
        return new Response(null, { status: 201 })
      },
    })
    renderScreen(<ActionsSettings repo={repoFixture()} />)
    await screen.findByText('No secrets yet.')
    const form = screen.getByRole('form', { name: 'Add or update a secret' })
    const value = within(form).getByLabelText('Value') as HTMLInputElement
    expect(value.type).toBe('password')
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'DEPLOY_KEY' } })
    fireEvent.change(value, { target: { value: 'hunter2-very-secret' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save secret' }))
    await screen.findByText('DEPLOY_KEY')
    expect(api.sent('PUT', `${ACTIONS}/secrets/DEPLOY_KEY`).map((c) => c.body)).toEqual([{ data: 'hunter2-very-secret' }])
    expect(value.value).toBe('')
    expect(document.body.innerHTML).not.toContain('hunter2-very-secret')
  })

  it('refuses a secret name GitHub reserves, without a request', async () => {
    const api = stub()
    renderScreen(<ActionsSettings repo={repoFixture()} />)
    const form = await screen.findByRole('form', { name: 'Add or update a secret' })
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'GITHUB_TOKEN' } })
    fireEvent.change(within(form).getByLabelText('Value'), { target: { value: 'x' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save secret' }))
    expect(await within(form).findByText('Names starting with GITHUB_ or GITEA_ are reserved.')).toBeTruthy()
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0)
  })

  it('lists variables with their values, and renames one with PUT {value, name}', async () => {
    const api = stub({ [`PUT ${ACTIONS}/variables/REGION`]: noContent() })
    renderScreen(<ActionsSettings repo={repoFixture()} />)
    expect(await screen.findByText('eu-west')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Edit variable REGION' }))
    const form = screen.getByRole('form', { name: 'Edit variable REGION' })
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'ZONE' } })
    fireEvent.change(within(form).getByLabelText('Value'), { target: { value: 'us-east' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save variable' }))
    await waitFor(() => expect(api.sent('PUT', `${ACTIONS}/variables/REGION`).map((c) => c.body)).toEqual([{ value: 'us-east', name: 'ZONE' }]))
  })
})
