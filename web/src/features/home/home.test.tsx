import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { repoFixture, stubApi } from '@/features/repositories/testing'
import { preloadNamespaces, renderScreen } from '@/test/render'
import HomeScreen from './HomeScreen'

preloadNamespaces('home')

describe('HomeScreen', () => {
  it('shows the most starred repositories as trending', async () => {
    const api = stubApi({
      'GET /api/v1/repos/search': { ok: true, data: [repoFixture({ stars_count: 12 }), repoFixture({ id: 8, name: 'loom', full_name: 'ada/loom', stars_count: 1, description: '' })] },
      'GET /api/v1/blog': [],
    })
    renderScreen(<HomeScreen />, '/')
    const trending = await screen.findByRole('region', { name: 'Trending repositories' })
    expect((await within(trending).findByRole('link', { name: 'ada/engine' })).getAttribute('href')).toBe('/ada/engine')
    expect(within(trending).getByText(/12 stars/)).toBeTruthy()
    expect(within(trending).getByText(/1 star$/)).toBeTruthy()
    const params = new URL(api.sent('GET', '/api/v1/repos/search')[0].url, 'http://x').searchParams
    expect([params.get('sort'), params.get('order'), params.get('limit')]).toEqual(['stars', 'desc', '6'])
  })

  it('says honestly that there are no repositories yet, and links to creating one', async () => {
    stubApi({ 'GET /api/v1/repos/search': { ok: true, data: [] }, 'GET /api/v1/blog': [] })
    renderScreen(<HomeScreen />, '/')
    const trending = await screen.findByRole('region', { name: 'Trending repositories' })
    expect(await within(trending).findByText('No repositories yet. Create your first repository!')).toBeTruthy()
    expect(within(trending).getByRole('link', { name: 'Create a repository' }).getAttribute('href')).toBe('/new')
    expect(screen.getByRole('link', { name: /^Create repository/ }).getAttribute('href')).toBe('/new')
  })
})
