// The client-side twin of internal/chain/tx/target.go's ParseTarget: the
// same canonical spellings are accepted, in the same order of checks, so
// the form reports what the chain would reject before anything is signed.

export const MAX_TARGET_BYTES = 256
export const MAX_NAME_LENGTH = 100

export type TargetKind = 'user' | 'repo' | 'issue' | 'pr'

export type TargetError =
  | { code: 'required' }
  | { code: 'tooLong'; max: number }
  | { code: 'shape' }
  | { code: 'kind'; kind: string }
  | { code: 'repoShape' }
  | { code: 'numberShape'; kind: TargetKind }
  | { code: 'nameLength'; name: string; max: number }
  | { code: 'nameChars'; name: string }
  | { code: 'number'; number: string }

const MAX_UINT64 = (1n << 64n) - 1n
const utf8Length = (s: string) => new TextEncoder().encode(s).length

/** Why s is not a tip target the chain accepts, or null when it is one. */
export function targetError(s: string): TargetError | null {
  if (s === '') return { code: 'required' }
  if (utf8Length(s) > MAX_TARGET_BYTES) return { code: 'tooLong', max: MAX_TARGET_BYTES }
  const colon = s.indexOf(':')
  if (colon < 0) return { code: 'shape' }
  const kind = s.slice(0, colon)
  const rest = s.slice(colon + 1)
  switch (kind) {
    case 'user':
      return nameError(rest)
    case 'repo':
      return repoError(rest)
    case 'issue':
    case 'pr':
      return numberedError(kind, rest)
  }
  return { code: 'kind', kind }
}

function repoError(s: string): TargetError | null {
  const slash = s.indexOf('/')
  if (slash < 0) return { code: 'repoShape' }
  return nameError(s.slice(0, slash)) ?? nameError(s.slice(slash + 1))
}

function numberedError(kind: TargetKind, s: string): TargetError | null {
  const hash = s.indexOf('#')
  if (hash < 0) return { code: 'numberShape', kind }
  const repo = repoError(s.slice(0, hash))
  if (repo) return repo
  const num = s.slice(hash + 1)
  // strconv.ParseUint(num, 10, 64): digits only, in range; then > 0 and canonical.
  if (!/^\d+$/.test(num) || BigInt(num) > MAX_UINT64 || BigInt(num) === 0n || BigInt(num).toString() !== num) {
    return { code: 'number', number: num }
  }
  return null
}

function nameError(name: string): TargetError | null {
  if (name === '' || utf8Length(name) > MAX_NAME_LENGTH) return { code: 'nameLength', name, max: MAX_NAME_LENGTH }
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return { code: 'nameChars', name }
  return null
}
