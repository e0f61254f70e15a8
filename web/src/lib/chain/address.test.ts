import { describe, expect, it } from 'vitest'
import { checksumAddress, isAddress, isZeroAddress } from './address'

const CHECKSUMMED = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'

describe('addresses', () => {
  it.each([
    [CHECKSUMMED, true],
    ['0XFB6916095CA1DF60BB79CE92CE3EA74C37C5D359', true],
    ['0xfb6916095ca1df60bb79ce92ce3ea74c37c5d35', false],
    ['fb6916095ca1df60bb79ce92ce3ea74c37c5d3590x', false],
    ['0xgb6916095ca1df60bb79ce92ce3ea74c37c5d359', false],
    [` ${CHECKSUMMED}`, false],
  ])('isAddress(%s) is %s, as the chain reads addresses', (s, want) => {
    expect(isAddress(s)).toBe(want)
  })

  it('knows the zero address', () => {
    expect(isZeroAddress(`0x${'0'.repeat(40)}`)).toBe(true)
    expect(isZeroAddress(CHECKSUMMED)).toBe(false)
  })

  it.each([CHECKSUMMED, CHECKSUMMED.toLowerCase(), `0x${CHECKSUMMED.slice(2).toUpperCase()}`, `0X${CHECKSUMMED.slice(2).toUpperCase()}`])(
    'gives %s its EIP-55 form',
    async (s) => {
      expect(await checksumAddress(s)).toBe(CHECKSUMMED)
    },
  )

  it('refuses mixed case that is not the checksum', async () => {
    expect(await checksumAddress('0xFb6916095ca1df60bB79Ce92cE3Ea74c37c5d359')).toBeNull()
  })
})
