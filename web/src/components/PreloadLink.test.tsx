import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { PreloadContext, PreloadLink } from './PreloadLink'

describe('PreloadLink', () => {
  it('hands its path to the preloader in context on hover and focus, and still calls its own handlers', () => {
    const preload = vi.fn()
    const onFocus = vi.fn()
    render(
      <PreloadContext value={preload}>
        <PreloadLink to="/explore" onFocus={onFocus}>
          Explore
        </PreloadLink>
      </PreloadContext>,
    )
    const link = screen.getByRole('link', { name: 'Explore' })
    expect(link.getAttribute('href')).toBe('/explore')
    fireEvent.mouseEnter(link)
    fireEvent.focus(link)
    expect(preload.mock.calls).toEqual([['/explore'], ['/explore']])
    expect(onFocus).toHaveBeenCalledTimes(1)
  })

  it('is a plain link outside the app', () => {
    render(<PreloadLink to="/wallet">Wallet</PreloadLink>)
    const link = screen.getByRole('link', { name: 'Wallet' })
    expect(() => fireEvent.mouseEnter(link)).not.toThrow()
    expect(link.getAttribute('href')).toBe('/wallet')
  })
})
