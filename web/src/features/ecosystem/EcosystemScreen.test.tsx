import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { matchRoute } from '@/lib/routes'
import en from '@/i18n/locales/en/ecosystem.json'
import { forbidFetch, renderScreen } from '@/test/render'
import EcosystemScreen from './EcosystemScreen'
import { ECOSYSTEM_SLUGS, PAGES } from './pages'

const renderAt = (path: string) => renderScreen(<EcosystemScreen />, path)

// These pages show no chain data (the wallet, explorer and treasury do): they must not call any API.
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

  it('says tips work now, on the wallet page, and that there are no bounties', async () => {
    renderAt('/bounties')
    expect(await screen.findByText(/Tips work now, on the wallet page/)).toBeTruthy()
    expect(screen.getByText(/dForge has no bounties/)).toBeTruthy()
    expect(screen.queryByText(/chain milestone/)).toBeNull()
    const related = screen.getByRole('region', { name: 'Related pages' })
    expect(within(related).getByRole('link', { name: 'Wallet' }).getAttribute('href')).toBe('/wallet')
  })

  it('has no actions: these pages move no tokens', async () => {
    renderAt('/marketplace')
    await screen.findByText('No listings yet')
    expect(screen.queryByRole('button')).toBeNull()
  })

  it.each(['wallet', 'staking', 'validators', 'explorer', 'treasury', 'grants'])('leaves /%s, which shows chain data, to its own screen', (slug) => {
    expect(matchRoute(`/${slug}`).screen).toBe(slug)
  })
})
