import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { type ComponentType, Suspense } from 'react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { matchRoute, RouteContext } from '@/app/routes'
import { initI18n } from '@/i18n/i18n'
import GovernanceScreen from './GovernanceScreen'

function renderAt(url: string, Screen: ComponentType) {
  window.history.replaceState(null, '', url)
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <RouteContext value={matchRoute(new URL(url, window.location.origin).pathname)}>
        <Suspense fallback={null}>
          <Screen />
        </Suspense>
      </RouteContext>
    </QueryClientProvider>,
  )
}

// Loading the namespaces up front keeps a slow first chunk load from
// racing the findBy* timeouts below.
beforeAll(async () => {
  await initI18n().loadNamespaces(['governance'])
})
afterEach(() => {
  cleanup()
  window.history.replaceState(null, '', '/')
})

const selected = () => screen.getByRole('tab', { selected: true }).textContent

describe('GovernanceScreen', () => {
  it('lists no proposals yet and explains voting power', async () => {
    renderAt('/governance', GovernanceScreen)
    expect(await screen.findByText('No proposals yet')).toBeTruthy()
    expect(screen.getByRole('heading', { level: 2, name: 'How voting power works' })).toBeTruthy()
    expect(screen.getByText('Voting power = stake × reputation multiplier')).toBeTruthy()
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All', 'Active', 'Passed', 'Rejected', 'Executed'])
  })

  it('switches the status filter by click and by arrow keys', async () => {
    renderAt('/governance', GovernanceScreen)
    fireEvent.click(await screen.findByRole('tab', { name: 'Passed' }))
    expect(selected()).toBe('Passed')
    expect(screen.getByText('No passed proposals')).toBeTruthy()
    expect(screen.queryByText('No proposals yet')).toBeNull()

    fireEvent.keyDown(screen.getByRole('tab', { name: 'Passed' }), { key: 'ArrowRight' })
    expect(selected()).toBe('Rejected')
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Rejected' }))
    expect(screen.getByRole('tabpanel', { name: 'Rejected' }).textContent).toBe('No rejected proposals')

    fireEvent.keyDown(document.activeElement!, { key: 'End' })
    expect(selected()).toBe('Executed')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    expect(selected()).toBe('All')
  })

  it('renders Create proposal disabled with the reason', async () => {
    renderAt('/governance', GovernanceScreen)
    const button = (await screen.findByRole('button', { name: 'Create proposal' })) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/governance milestone/)
  })
})
