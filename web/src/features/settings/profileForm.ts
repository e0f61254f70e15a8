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

export type FieldError = { key: 'tooLong'; max: number } | { key: 'website' } | { key: 'email' } | { key: 'server'; message: string }
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

/** The form field for each field name the server uses (PATCH /api/v1/user/settings, 422 {field}). */
export const SERVER_FIELDS: Record<string, ProfileField> = {
  full_name: 'displayName',
  description: 'bio',
  location: 'location',
  website: 'website',
  email: 'email',
}

/** The PATCH body for the form's values (Gitea's field names). */
export function toPatch(v: ProfileValues) {
  return { full_name: v.displayName.trim(), description: v.bio, location: v.location.trim(), website: v.website.trim(), email: v.email.trim() }
}

/**
 * The profile form's state. A field's error shows once the user has left it
 * (or tried to submit), so nobody is scolded while still typing. An error
 * the server gave for a field shows until that field is edited.
 */
export function useProfileForm(initial: ProfileValues) {
  const [values, setValues] = useState(initial)
  const [touched, setTouched] = useState<Partial<Record<ProfileField, boolean>>>({})
  const [server, setServer] = useState<ProfileErrors>({})
  const all = validateProfile(values)
  const errors: ProfileErrors = { ...server }
  for (const field of Object.keys(all) as ProfileField[]) if (touched[field]) errors[field] = all[field]
  return {
    values,
    errors,
    /** Whether any field is invalid, touched or not. */
    invalid: Object.keys(all).length > 0,
    /** The first invalid field, in form order. */
    firstInvalid: (Object.keys(LIMITS) as ProfileField[]).find((f) => all[f]),
    setField: (field: ProfileField, value: string) => {
      setValues((v) => ({ ...v, [field]: value }))
      setServer(({ [field]: _gone, ...rest }) => rest)
    },
    setServerError: (field: ProfileField, message: string) => setServer((s) => ({ ...s, [field]: { key: 'server', message } })),
    touch: (field: ProfileField) => setTouched((t) => ({ ...t, [field]: true })),
    touchAll: () => setTouched({ displayName: true, bio: true, location: true, website: true, email: true }),
  }
}
