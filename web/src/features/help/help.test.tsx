import { screen } from '@testing-library/react'
import i18n from '@/i18n/i18n'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, stubFetch } from '@/test/render'
import HelpScreen from './HelpScreen'

preloadNamespaces('help')

const DOCS = [
  { slug: 'index', title: 'Documentation', html: '' },
  { slug: 'getting-started', title: 'Getting Started', html: '' },
  { slug: 'a-new-page', title: 'A New Page', html: '' },
]

describe('help centre', () => {
  it('titles the popular articles in the reader\'s language, and a doc the locale does not know by its own title', async () => {
    await i18n.changeLanguage('de')
    try {
      stubFetch({ '/api/v1/docs': DOCS })
      renderScreen(<HelpScreen />, '/help')
      expect((await screen.findByRole('link', { name: 'Erste Schritte' })).getAttribute('href')).toBe('/docs/getting-started')
      expect(screen.getByRole('link', { name: 'A New Page' })).toBeTruthy()
      expect(screen.queryByRole('link', { name: 'Getting Started' })).toBeNull()
    } finally {
      await i18n.changeLanguage('en')
    }
  })
})
