import type { ContactMessage } from './api'

/** The server's limits (internal/support), checked here first for quick feedback. */
export const LIMITS: Record<keyof ContactMessage, number> = { name: 100, email: 254, subject: 200, message: 5000 }

export type FieldError = { key: 'required' | 'email' | 'tooLong'; max?: number }
export type ContactErrors = Partial<Record<keyof ContactMessage, FieldError>>

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/

export function validateContact(m: ContactMessage): ContactErrors {
  const errors: ContactErrors = {}
  for (const field of Object.keys(LIMITS) as (keyof ContactMessage)[]) {
    const value = m[field].trim()
    if (!value) errors[field] = { key: 'required' }
    else if (value.length > LIMITS[field]) errors[field] = { key: 'tooLong', max: LIMITS[field] }
  }
  if (!errors.email && !EMAIL.test(m.email.trim())) errors.email = { key: 'email' }
  return errors
}
