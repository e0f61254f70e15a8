import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch } from '@/test/render'
import { FollowButton, UserFollows } from './Follows'

preloadNamespaces('follows')

const person = (login: string) => ({ id: login.length, login, wallet_address: `0x${login}` })
const page = (items: unknown[]) =>
  new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(items.length) } })

describe('FollowButton', () => {
  it('follows and unfollows someone else, and is absent when signed out or on one’s own profile', async () => {
    let following = false
    const writes: string[] = []
    stubFetch(async (input, init) => {
      const method = init?.method ?? 'GET'
      // Whether ada follows grace comes with grace, not as Gitea's 404 for no.
      if (String(input) === '/api/v1/users/grace' && method === 'GET') return json({ login: 'grace', followed_by_me: following })
      if (String(input) !== '/api/v1/user/following/grace' || method === 'GET') return json({}, 404)
      writes.push(method)
      following = method === 'PUT'
      return new Response(null, { status: 204 })
    })
    const signedOut = renderScreen(<FollowButton login="grace" />)
    expect(screen.queryByRole('button')).toBeNull()
    signedOut.unmount()

    signIn()
    const own = renderScreen(<FollowButton login="ada" />)
    expect(screen.queryByRole('button')).toBeNull()
    own.unmount()

    renderScreen(<FollowButton login="grace" />)
    const enabled = async (name: string) => {
      const button = await screen.findByRole('button', { name })
      await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false))
      return button
    }
    fireEvent.click(await enabled('Follow'))
    expect((await enabled('Unfollow')).getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(await enabled('Unfollow'))
    await enabled('Follow')
    expect(writes).toEqual(['PUT', 'DELETE'])
  })
})

describe('UserFollows', () => {
  it('lists followers and following with their counts, and says when a list is empty', async () => {
    stubFetch(async (input) => {
      const url = new URL(String(input), 'http://node')
      if (url.pathname === '/api/v1/users/grace/followers') return page([person('ada'), person('linus')])
      if (url.pathname === '/api/v1/users/grace/following') return page([])
      return json({}, 404)
    })
    renderScreen(<UserFollows login="grace" followers={2} following={0} />)
    expect(await screen.findByRole('link', { name: 'linus' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/user/ada')
    const tabs = screen.getByRole('tablist')
    fireEvent.click(within(tabs).getByRole('tab', { name: 'Following (0)' }))
    expect(await screen.findByText('Not following anyone yet')).toBeTruthy()
    await waitFor(() => expect(screen.queryByRole('link', { name: 'ada' })).toBeNull())
  })
})
