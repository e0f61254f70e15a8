import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import { HIDDEN_MARKER, type Report } from './api'
import { HiddenContent } from './HiddenNotice'
import { ReportButton } from './ReportButton'
import ReportsScreen from './ReportsScreen'

preloadNamespaces('moderation')

const report: Report = {
  id: 3,
  kind: 'issue',
  target: '1:2',
  target_label: 'alice/app#2',
  subject: '0x0000000000000000000000000000000000000002',
  reporter: '0x0000000000000000000000000000000000000001',
  reason: 'spam',
  detail: 'Buy now links',
  status: 'open',
  action: '',
  note: '',
  created_at: '2026-01-02T03:04:05Z',
}

function page(items: Report[]) {
  return new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(items.length) } })
}

describe('ReportsScreen', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderScreen(<ReportsScreen />, '/reports')
    expect(await screen.findByText('Sign in with your wallet to report content and follow your reports.')).toBeTruthy()
  })

  it("shows a user their own reports and no queue", async () => {
    const calls: string[] = []
    stubFetch(async (input) => {
      const url = String(input)
      calls.push(url)
      if (url === '/api/v1/user') return json({ login: 'ada', is_admin: false })
      if (url.startsWith('/api/v1/user/reports')) return page([{ ...report, status: 'resolved', action: 'hidden', note: 'advertising' }])
      return json({ message: 'not found', code: 'not_found' }, 404)
    })
    signIn(WALLET)
    renderScreen(<ReportsScreen />, '/reports')
    expect(await screen.findByText('alice/app#2')).toBeTruthy()
    expect(screen.getByText('Hidden on this node')).toBeTruthy()
    expect(screen.queryByText('Moderation queue')).toBeNull()
    expect(calls.some((c) => c.startsWith('/api/v1/admin/'))).toBe(false)
  })

  it('lets a moderator hide a reported item with a reason, after confirming', async () => {
    const calls: string[] = []
    let open = true
    stubFetch(async (input, init) => {
      const url = String(input)
      calls.push(`${init?.method ?? 'GET'} ${url} ${init?.body ?? ''}`)
      if (url === '/api/v1/user') return json({ login: 'ada', is_admin: true })
      if (url.startsWith('/api/v1/user/reports')) return page([])
      if (url.startsWith('/api/v1/admin/reports/3/hide')) {
        open = false
        return json({ ...report, status: 'resolved', action: 'hidden' })
      }
      if (url.startsWith('/api/v1/admin/reports')) return page(open ? [report] : [])
      if (url.startsWith('/api/v1/admin/hidden')) return page([])
      if (url === '/api/v1/admin/suspensions') return json([])
      return json({ message: 'not found', code: 'not_found' }, 404)
    })
    signIn(WALLET)
    renderScreen(<ReportsScreen />, '/reports')
    expect(await screen.findByText('Nothing is hidden on this node.')).toBeTruthy()
    expect(await screen.findByText('No account is suspended on this node.')).toBeTruthy()
    const card = await screen.findByRole('article', { name: 'Report 3' })
    expect(within(card).getByText('Buy now links')).toBeTruthy()
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), { target: { value: 'comment' } })
    await waitFor(() => expect(calls.some((c) => c.includes('kind=comment'))).toBe(true))
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), { target: { value: '' } })
    fireEvent.click(within(await screen.findByRole('article', { name: 'Report 3' })).getByRole('button', { name: 'Hide' }))
    const dialog = await screen.findByRole('dialog', { name: 'Hide alice/app#2 on this node?' })
    const submit = within(dialog).getByRole('button', { name: 'Hide' }) as HTMLButtonElement
    expect(submit.disabled).toBe(true)
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason (shown to others)' }), { target: { value: 'advertising' } })
    fireEvent.click(submit)
    await waitFor(() => expect(calls.some((c) => c.startsWith('POST /api/v1/admin/reports/3/hide') && c.includes('advertising'))).toBe(true))
    expect(await screen.findByText('No open reports')).toBeTruthy()
  })
})

describe('SuspensionList', () => {
  it('lifts a suspension after confirming', async () => {
    const calls: string[] = []
    let suspended = true
    const addr = '0x0000000000000000000000000000000000000002'
    stubFetch(async (input, init) => {
      const url = String(input)
      calls.push(`${init?.method ?? 'GET'} ${url}`)
      if (url === '/api/v1/user') return json({ login: 'ada', is_admin: true })
      if (url === `/api/v1/admin/suspensions/${addr}`) {
        suspended = false
        return new Response(null, { status: 204 })
      }
      if (url === '/api/v1/admin/suspensions')
        return json(suspended ? [{ address: addr, username: 'spammer', reason: 'spam account', suspended_by: WALLET, created_at: '2026-01-02T03:04:05Z' }] : [])
      return page([])
    })
    signIn(WALLET)
    renderScreen(<ReportsScreen />, '/reports')
    const card = await screen.findByRole('article', { name: 'spammer' })
    expect(within(card).getByText(/spam account/)).toBeTruthy()
    fireEvent.click(within(card).getByRole('button', { name: 'Lift' }))
    const dialog = await screen.findByRole('dialog', { name: 'Let spammer write through this node again?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Lift' }))
    await waitFor(() => expect(calls).toContain(`DELETE /api/v1/admin/suspensions/${addr}`))
    expect(await screen.findByText('No account is suspended on this node.')).toBeTruthy()
  })
})

describe('ReportButton', () => {
  it('files a report with a reason and detail, and says when it was already filed', async () => {
    const bodies: string[] = []
    let first = true
    stubFetch(async (_input, init) => {
      bodies.push(String(init?.body))
      if (first) {
        first = false
        return json({ message: 'you already reported this issue', code: 'already_reported' }, 409)
      }
      return json(report, 201)
    })
    signIn(WALLET)
    renderScreen(<ReportButton kind="issue" target="alice/app#2" label="Issue #2" />)
    fireEvent.click(screen.getByRole('button', { name: 'Report Issue #2' }))
    const dialog = await screen.findByRole('dialog', { name: 'Report Issue #2' })
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Reason' }), { target: { value: 'abuse' } })
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Details (optional)' }), { target: { value: 'rude' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }))
    expect(await within(dialog).findByText('You already reported this; it is waiting for a moderator.')).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }))
    expect(await within(dialog).findByText("Thank you. This node's moderators will look at your report.")).toBeTruthy()
    expect(JSON.parse(bodies[1])).toEqual({ kind: 'issue', target: 'alice/app#2', reason: 'abuse', detail: 'rude' })
  })

  it('is not offered to a signed-out visitor', () => {
    renderScreen(<ReportButton kind="user" target="alice" />)
    expect(screen.queryByRole('button')).toBeNull()
  })
})

describe('HiddenContent', () => {
  it('shows the notice instead of the marker, and the content under it for an admin', async () => {
    const { unmount } = renderScreen(
      <HiddenContent item={{ hidden: true, hidden_reason: 'advertising', body: HIDDEN_MARKER }}>
        <p>secret body</p>
      </HiddenContent>,
    )
    expect(await screen.findByText("Hidden by this node's moderators.")).toBeTruthy()
    expect(screen.getByText(/Reason: advertising/)).toBeTruthy()
    expect(screen.queryByText('secret body')).toBeNull()
    unmount()
    renderScreen(
      <HiddenContent item={{ hidden: true, hidden_reason: 'advertising', body: 'buy now' }}>
        <p>buy now</p>
      </HiddenContent>,
    )
    expect(await screen.findByText('buy now')).toBeTruthy()
    expect(screen.getByText("Hidden by this node's moderators.")).toBeTruthy()
  })
})
