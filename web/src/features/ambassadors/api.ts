import { useMutation } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { postJSON } from '@/lib/http'

/** What POST /api/v1/contact takes: a signed-in sender's message becomes a support ticket they follow at /help. */
export type Application = Schema<'support.Message'>

/** The server's limits (internal/support), checked here first for quick feedback. */
export const LIMITS: Record<keyof Application, number> = { name: 100, email: 254, subject: 200, message: 5000 }

export type ApplicationErrors = Partial<Record<keyof Application, { key: 'required' | 'email' | 'tooLong'; max?: number }>>

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/

export function checkApplication(a: Application): ApplicationErrors {
  const errors: ApplicationErrors = {}
  for (const field of Object.keys(LIMITS) as (keyof Application)[]) {
    const value = a[field].trim()
    if (!value) errors[field] = { key: 'required' }
    else if (value.length > LIMITS[field]) errors[field] = { key: 'tooLong', max: LIMITS[field] }
  }
  if (!errors.email && !EMAIL.test(a.email.trim())) errors.email = { key: 'email' }
  return errors
}

export function useSendApplication() {
  return useMutation({ mutationFn: (a: Application) => postJSON<{ id: number }>('/api/v1/contact', a) })
}

/** The governance form, prefilled with a role proposal making address an ambassador. */
export function proposeHref(address: string): string {
  return `/governance/new?${new URLSearchParams({ type: 'role', role: 'ambassador', action: 'grant', account: address })}`
}
