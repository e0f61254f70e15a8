import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { matchRoute } from '@/app/routes'
import en from '@/i18n/locales/en/ecosystem.json'
import { forbidFetch, renderScreen } from '@/test/render'
import EcosystemScreen from './EcosystemScreen'
import { ECOSYSTEM_SLUGS, PAGES } from './pages'

const renderAt = (path: string) => renderScreen(<EcosystemScreen />, path)

// Chain data arrives in a later milestone: these pages must not call any API.
forbidFetch()

describe('EcosystemScreen', () => {
  it('serves every ecosystem route from the route table', () => {
    for (const slug of ECOSYSTEM_SLUGS) expect(matchRoute(`/${slug}`).screen).toBe('ecosystem')
  })

  it.each(ECOSYSTEM_SLUGS)('/%s shows its title, lead, milestone, empty state and related links', async (slug) => {
    const texts = en.pages[slug]
    renderAt(`/${slug}`)
    expect(await screen.findByRole('heading', { level: 1, name: texts.title })).toBeTruthy()
    expect(screen.getByText(texts.lead)).toBeTruthy()
    expect(screen.getByText(texts.milestone)).toBeTruthy()
    expect(screen.getByText(texts.empty)).toBeTruthy()
    const related = screen.getByRole('region', { name: 'Related pages' })
    expect(within(related).getAllByRole('link')).toHaveLength(PAGES[slug].links.length)
  })

  it('explains the treasury and links to governance', async () => {
    renderAt('/treasury')
    expect(await screen.findByText(/spent only by treasury spend proposals/)).toBeTruthy()
    expect(screen.getByText('No treasury activity yet')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Governance' }).getAttribute('href')).toBe('/governance')
  })

  it('shows the validators empty state', async () => {
    renderAt('/validators')
    expect(await screen.findByText('No validators yet')).toBeTruthy()
    expect(screen.getByText(/CometBFT consensus/)).toBeTruthy()
  })

  it('renders wallet actions disabled, with the reason', async () => {
    renderAt('/wallet')
    const group = await screen.findByRole('group', { name: 'Wallet actions' })
    const buttons = within(group).getAllByRole('button') as HTMLButtonElement[]
    expect(buttons.map((b) => b.textContent)).toEqual(['Send', 'Receive', 'Tip', 'Stake', 'Unstake'])
    expect(buttons.every((b) => b.disabled)).toBe(true)
    expect(document.getElementById(buttons[0].getAttribute('aria-describedby')!)?.textContent).toMatch(
      /Available when the chain milestone lands/,
    )
  })

  it('has no actions on pages that move no tokens', async () => {
    renderAt('/explorer')
    await screen.findByText('No blocks yet')
    expect(screen.queryByRole('button')).toBeNull()
  })
})
