import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { REPO, repoFixture, stubApi } from '@/test/forge'
import { preloadNamespaces, renderScreen } from '@/test/render'
import CodeScreen from './CodeScreen'

preloadNamespaces('repositories', 'code')

describe('the code view toolbar', () => {
  it('offers code search in the code view toolbar', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: [],
      [`GET ${REPO}/tags`]: [],
      [`GET ${REPO}/contents`]: [],
      [`GET ${REPO}/last_commits`]: { commit: 'a'.repeat(40), entries: [] },
    })
    renderScreen(<CodeScreen />, '/ada/engine/src')
    const input = await screen.findByRole('searchbox', { name: 'Search code in this repository' })
    const form = input.closest('form') as HTMLFormElement
    expect(form.getAttribute('action')).toBe('/ada/engine/search')
    expect(form.getAttribute('method')).toBe('get')
    expect(input.getAttribute('name')).toBe('q')
  })
})
