import { numberFormat } from '@/lib/intl'

// Token amounts are integer micro-units on the chain (uint64) and decimal
// strings for people. Conversions go through BigInt and strings only: a
// float cannot hold every uint64, and 0.1 + 0.2 has no place in a ledger.

/** An amount as the API sends it: a JSON number, or a decimal string when exactJSON kept a large one exact. */
export type Micro = number | string | bigint

/** The largest amount the chain accepts (its amounts are uint64). */
export const MAX_MICRO = (1n << 64n) - 1n

export function toBigInt(value: Micro): bigint {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new RangeError(`not an exact integer amount: ${value}`)
  return BigInt(value)
}

const scale = (decimals: number) => 10n ** BigInt(decimals)

/** The decimal separator of a locale ("." in en, "," in de). */
export function decimalSeparator(locale?: string): string {
  return numberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.'
}

/**
 * micro-units as a person reads them in locale: grouped whole part, then
 * only the significant decimals (1500000 with 6 decimals is "1.5").
 */
export function formatAmount(value: Micro, decimals: number, locale?: string): string {
  const v = toBigInt(value)
  const abs = v < 0n ? -v : v
  const whole = numberFormat(locale).format(abs / scale(decimals))
  const frac = fraction(abs, decimals)
  return (v < 0n ? '-' : '') + whole + (frac ? decimalSeparator(locale) + frac : '')
}

/** micro-units as a plain decimal string ("1.5", or "1,5" with separator ","): what an amount field accepts back. */
export function toDecimalString(value: Micro, decimals: number, separator = '.'): string {
  const v = toBigInt(value)
  const abs = v < 0n ? -v : v
  const frac = fraction(abs, decimals)
  return (v < 0n ? '-' : '') + (abs / scale(decimals)).toString() + (frac ? separator + frac : '')
}

function fraction(abs: bigint, decimals: number): string {
  if (decimals === 0) return ''
  return (abs % scale(decimals)).toString().padStart(decimals, '0').replace(/0+$/, '')
}

export type AmountError = 'required' | 'format' | 'precision' | 'positive' | 'tooLarge'
export type ParsedAmount = { ok: true; micro: bigint } | { ok: false; error: AmountError }

/**
 * Reads what a person typed ("12", "0.5", ".25", "1.50") as micro-units.
 * The decimal mark is the locale's own (separator) and nothing else, and
 * thousands separators are refused rather than guessed at: "1,000" in
 * English or "1.000" in German is an error, never 1. Extra trailing zeros
 * past the token's decimals are fine; any other digit there is a precision
 * error.
 */
export function parseAmount(input: string, decimals: number, separator = '.'): ParsedAmount {
  const s = input.trim()
  if (s === '') return { ok: false, error: 'required' }
  if (/^-\s*[\d.,]/.test(s)) return { ok: false, error: 'positive' }
  const mark = separator.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const m = new RegExp(`^(\\d*)(?:${mark}(\\d*))?$`).exec(s)
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) return { ok: false, error: 'format' }
  const frac = (m[2] ?? '').replace(/0+$/, '')
  if (frac.length > decimals) return { ok: false, error: 'precision' }
  const micro = BigInt(m[1] || '0') * scale(decimals) + BigInt(frac.padEnd(decimals, '0') || '0')
  if (micro === 0n) return { ok: false, error: 'positive' }
  if (micro > MAX_MICRO) return { ok: false, error: 'tooLarge' }
  return { ok: true, micro }
}
