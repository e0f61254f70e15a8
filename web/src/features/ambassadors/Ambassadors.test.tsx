import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RoleHolder } from '@/lib/community'
import { matchRoute } from '@/lib/routes'
import { fakeChain, OTHER } from '@/test/chain'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import { schemaFixture } from '@/test/schemaFixture'
import AmbassadorsScreen from './AmbassadorsScreen'

preloadNamespaces('ambassadors', 'wallet')

const grace: RoleHolder = {
  user: schemaFixture('User', {
    id: 1,
    login: 'grace',
    full_name: 'Grace Hopper',
    description: 'Runs the Lisbon meetup.',
    location: 'Lisbon',
    wallet_address: OTHER,
  }),
  role: 'ambassador',
  height: 40,
  proposal: 3,
  granted: '2026-11-20T10:00:00Z',
}
const founder: RoleHolder = {
  ...grace,
  user: { ...grace.user, login: 'u-52908400', full_name: '', description: '', location: '', wallet_address: WALLET },
  height: 0,
  proposal: 0,
}

/** The node: the chain's status and params, the ambassadors, and the contact form, which records what it is sent. */
function stubNode(holders: RoleHolder[]) {
  const chain = fakeChain()
  const sent: unknown[] = []
  const fetchMock = stubFetch(async (input, init) => {
    const url = new URL(String(input), 'http://node.test')
    if (url.pathname === '/api/v1/chain/params') return json(chain.params)
    if (url.pathname === '/api/v1/chain/status') return json(chain.status)
    if (url.pathname === '/api/v1/community/roles' && url.searchParams.get('role') === 'ambassador') {
      const res = json(holders)
      res.headers.set('X-Total-Count', String(holders.length))
      return res
    }
    if (url.pathname === '/api/v1/contact' && init?.method === 'POST') {
      sent.push(JSON.parse(String(init.body)))
      return json({ id: 12 }, 201)
    }
    return json({ message: 'not found', code: 'not_found' }, 404)
  })
  return { fetchMock, sent }
}

describe('AmbassadorsScreen', () => {
  it('serves /ambassadors', () => {
    expect(matchRoute('/ambassadors').screen).toBe('ambassadors')
  })

  it('describes the program and lists the ambassadors with their profile, proposal and region', async () => {
    stubNode([founder, grace])
    renderScreen(<AmbassadorsScreen />, '/ambassadors')
    expect(await screen.findByRole('heading', { level: 1, name: 'Ambassadors' })).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'What ambassadors do' })).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'What they get' })).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'How to apply' })).toBeTruthy()

    const card = (await screen.findByRole('link', { name: 'Grace Hopper' })).closest('li')!
    expect(within(card).getByRole('link', { name: 'Grace Hopper' }).getAttribute('href')).toBe('/grace')
    expect(within(card).getByText('@grace')).toBeTruthy()
    expect(within(card).getByText('Region:').parentElement?.textContent).toBe('Region: Lisbon')
    expect(within(card).getByText('Runs the Lisbon meetup.')).toBeTruthy()
    expect(within(card).getByRole('link', { name: 'Granted by proposal #3' }).getAttribute('href')).toBe('/governance/3')

    const first = screen.getByRole('link', { name: 'u-52908400' }).closest('li')!
    expect(within(first).getByText('Ambassador since the chain began')).toBeTruthy()
    expect(within(first).getByText('No bio yet.')).toBeTruthy()
    expect(within(first).getByText('not given')).toBeTruthy()
    // Signed out: applying asks to sign in.
    expect(screen.getByText('Sign in to apply to the ambassador program.')).toBeTruthy()
  })

  it('says so when no one holds the role', async () => {
    stubNode([])
    renderScreen(<AmbassadorsScreen />, '/ambassadors')
    expect(await screen.findByText('No one holds the ambassador role yet.')).toBeTruthy()
  })

  it('proposes the signed-in user through the governance form, prefilled with their address', async () => {
    stubNode([])
    signIn(WALLET)
    renderScreen(<AmbassadorsScreen />, '/ambassadors')
    const link = await screen.findByRole('link', { name: 'Propose me as ambassador' })
    const href = new URL(link.getAttribute('href')!, 'http://node.test')
    expect(href.pathname).toBe('/governance/new')
    expect(Object.fromEntries(href.searchParams)).toEqual({ type: 'role', role: 'ambassador', action: 'grant', account: WALLET })
  })

  it('cannot propose a user without a wallet address, and says why', async () => {
    stubNode([])
    signIn()
    renderScreen(<AmbassadorsScreen />, '/ambassadors')
    const button = (await screen.findByRole('button', { name: 'Propose me as ambassador' })) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Proposing yourself needs a wallet address: sign in with your wallet first.',
    )
  })

  it('sends an application as a support ticket from a prefilled form, checking the fields first', async () => {
    const { sent } = stubNode([])
    signIn(WALLET)
    renderScreen(<AmbassadorsScreen />, '/ambassadors')
    const open = await screen.findByRole('button', { name: 'Send an application' })
    expect(open.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(open)
    expect(open.getAttribute('aria-expanded')).toBe('true')
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('ada')
    expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe('Ambassador application')
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toContain('Languages:')

    fireEvent.click(screen.getByRole('button', { name: 'Send application' }))
    expect(screen.getByText('Fill in this field.')).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByLabelText('Email'))
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send application' }))
    expect(screen.getByText('Enter a valid email address.')).toBeTruthy()
    expect(sent).toEqual([])

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.org' } })
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Region: Lisbon\nLanguages: Portuguese' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send application' }))
    expect(await screen.findByText('Your application was sent as a support ticket. You will find the replies under Help.')).toBeTruthy()
    expect(sent).toEqual([{ name: 'ada', email: 'ada@example.org', subject: 'Ambassador application', message: 'Region: Lisbon\nLanguages: Portuguese' }])
    expect(screen.getByRole('link', { name: 'See my tickets' }).getAttribute('href')).toBe('/help')
    await waitFor(() => expect(screen.queryByLabelText('Email')).toBeNull())
  })
})
