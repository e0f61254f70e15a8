import { describe, expect, it } from 'vitest'
import { formatAmount, MAX_MICRO, parseAmount, toBigInt, toDecimalString } from './amount'
import { parseExactJSON } from './exactJSON'

describe('parseAmount', () => {
  it.each([
    ['1', 6, 1_000_000n],
    ['0.5', 6, 500_000n],
    ['.25', 6, 250_000n],
    ['12.', 6, 12_000_000n],
    ['0.000001', 6, 1n],
    ['1.500000000', 6, 1_500_000n],
    ['  7.1 ', 6, 7_100_000n],
    ['007', 6, 7_000_000n],
    ['3', 0, 3n],
    ['18446744073709.551615', 6, MAX_MICRO],
    ['1.000000000000000001', 18, 1_000_000_000_000_000_001n],
  ])('reads %s with %i decimals exactly', (input, decimals, want) => {
    expect(parseAmount(input, decimals)).toEqual({ ok: true, micro: want })
  })

  it('gives 0.1 + 0.2 as exactly 0.3 in micro-units, which floats do not', () => {
    const a = parseAmount('0.1', 6)
    const b = parseAmount('0.2', 6)
    expect(a.ok && b.ok && a.micro + b.micro).toBe(300_000n)
  })

  it.each([
    ['', 'required'],
    ['   ', 'required'],
    ['abc', 'format'],
    ['1e3', 'format'],
    ['1,000', 'format'],
    ['1.2.3', 'format'],
    ['.', 'format'],
    ['+1', 'format'],
    ['0x10', 'format'],
    ['1 000', 'format'],
    ['-1', 'positive'],
    ['0', 'positive'],
    ['0.000', 'positive'],
    ['0.0000001', 'precision'],
    ['1.1234567', 'precision'],
    ['18446744073709.551616', 'tooLarge'],
    ['99999999999999999999', 'tooLarge'],
  ])('refuses %j (%s)', (input, error) => {
    expect(parseAmount(input, 6)).toEqual({ ok: false, error })
  })

  it('refuses any fraction for a token without decimals', () => {
    expect(parseAmount('1.5', 0)).toEqual({ ok: false, error: 'precision' })
    expect(parseAmount('2.0', 0)).toEqual({ ok: true, micro: 2n })
  })

  it("takes only the locale's decimal mark, so a thousands separator is never read as one", () => {
    expect(parseAmount('1,5', 6, ',')).toEqual({ ok: true, micro: 1_500_000n })
    expect(parseAmount('1.000', 6, ',')).toEqual({ ok: false, error: 'format' })
    expect(parseAmount('1,000', 6)).toEqual({ ok: false, error: 'format' })
    expect(toDecimalString(1_500_000, 6, ',')).toBe('1,5')
  })
})

describe('formatAmount and toDecimalString', () => {
  it.each([
    [0, 6, '0', '0'],
    [1, 6, '0.000001', '0.000001'],
    [1_500_000, 6, '1.5', '1.5'],
    [1_000_000, 6, '1', '1'],
    [1_234_567_890_000, 6, '1,234,567.89', '1234567.89'],
    ['18446744073709551615', 6, '18,446,744,073,709.551615', '18446744073709.551615'],
    [42, 0, '42', '42'],
    [-2_500_000, 6, '-2.5', '-2.5'],
  ])('%s micro-units with %i decimals read %s', (micro, decimals, formatted, plain) => {
    expect(formatAmount(micro, decimals, 'en')).toBe(formatted)
    expect(toDecimalString(micro, decimals)).toBe(plain)
  })

  it('round-trips through parseAmount', () => {
    for (const micro of [1n, 999_999n, 1_000_001n, MAX_MICRO]) {
      expect(parseAmount(toDecimalString(micro, 6), 6)).toEqual({ ok: true, micro })
    }
  })

  it('groups and marks decimals the way the language writes them', () => {
    expect(formatAmount(1_234_500_000, 6, 'de')).toBe('1.234,5')
  })

  it('refuses a JSON number that lost precision', () => {
    expect(() => toBigInt(2 ** 60)).toThrow(RangeError)
    expect(toBigInt('1152921504606846976')).toBe(1n << 60n)
  })
})

describe('parseExactJSON', () => {
  it('keeps integers beyond 2^53 exact as strings and leaves the rest alone', () => {
    const text = '{"supply":18446744073709551615,"height":12,"ratio":0.5,"neg":-9007199254740993,"note":"id 12345678901234567890"}'
    expect(parseExactJSON(text)).toEqual({
      supply: '18446744073709551615',
      height: 12,
      ratio: 0.5,
      neg: '-9007199254740993',
      note: 'id 12345678901234567890',
    })
  })

  it('does not touch digits inside strings with escaped quotes', () => {
    expect(parseExactJSON('["a \\"1234567890123456789\\" b", 12345678901234567890]')).toEqual(['a "1234567890123456789" b', '12345678901234567890'])
  })
})
