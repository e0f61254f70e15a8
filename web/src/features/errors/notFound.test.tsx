import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderScreen } from '@/test/render'
import NotFoundScreen from './NotFoundScreen'

describe('not found page', () => {
  it('names the missing page in the tab title, not just the product', async () => {
    document.title = 'dForge'
    renderScreen(<NotFoundScreen />, '/no-such-page')
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy()
    expect(document.title).toBe('Page not found · dForge')
  })
})
