import { describe, expect, it } from 'vitest'
import { routeTable } from '@/lib/routes'
import { screenFor, screens } from './screens'

describe('screens', () => {
  it('has a screen for every screen the route table names', () => {
    for (const r of routeTable) expect(Object.keys(screens), r.path).toContain(r.screen)
  })

  it('shows Not Found for a name it does not know', () => {
    expect(screenFor('nope')).toBe(screens.notFound)
    expect(screenFor('home')).toBe(screens.home)
  })
})
