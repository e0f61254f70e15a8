import { useState } from 'react'

export interface ProfileValues {
  displayName: string
  bio: string
  location: string
  website: string
  email: string
}
export type ProfileField = keyof ProfileValues

/** Gitea's limits for the same profile fields (email: RFC 5321's 254). */
export const LIMITS: Record<ProfileField, number> = { displayName: 100, bio: 255, location: 50, website: 255, email: 254 }

export type FieldError = { key: 'tooLong'; max: number } | { key: 'website' } | { key: 'email' }
export type ProfileErrors = Partial<Record<ProfileField, FieldError>>

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/

function isWebURL(s: string): boolean {
  try {
    const url = new URL(s)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** Every field is optional; a filled one must fit its limit and, for website and email, its format. */
export function validateProfile(v: ProfileValues): ProfileErrors {
  const errors: ProfileErrors = {}
  for (const field of Object.keys(LIMITS) as ProfileField[]) {
    // Counted in code points, as the server will count characters.
    if ([...v[field]].length > LIMITS[field]) errors[field] = { key: 'tooLong', max: LIMITS[field] }
  }
  const website = v.website.trim()
  if (!errors.website && website && !isWebURL(website)) errors.website = { key: 'website' }
  const email = v.email.trim()
  if (!errors.email && email && !EMAIL.test(email)) errors.email = { key: 'email' }
  return errors
}

/**
 * The profile form's state. A field's error shows once the user has left it
 * (or tried to submit), so nobody is scolded while still typing.
 */
export function useProfileForm(initial: ProfileValues) {
  const [values, setValues] = useState(initial)
  const [touched, setTouched] = useState<Partial<Record<ProfileField, boolean>>>({})
  const all = validateProfile(values)
  const errors: ProfileErrors = {}
  for (const field of Object.keys(all) as ProfileField[]) if (touched[field]) errors[field] = all[field]
  return {
    values,
    errors,
    setField: (field: ProfileField, value: string) => setValues((v) => ({ ...v, [field]: value })),
    touch: (field: ProfileField) => setTouched((t) => ({ ...t, [field]: true })),
    touchAll: () => setTouched({ displayName: true, bio: true, location: true, website: true, email: true }),
  }
}
