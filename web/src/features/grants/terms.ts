// A grant proposal's terms as the proposal form edits them, and their check
// before anything is signed: the chain refuses the same mistakes (package
// grants), but only after a signature. Messages are keys under errors.* in
// the grants namespace.
import { isAddress, isZeroAddress } from '@/lib/chain/address'
import { parseAmount } from '@/lib/chain/amount'

export const MAX_MILESTONES = 20
export const MAX_REVIEWERS = 15
export const MAX_DESCRIPTION = 1_000
/** The chain keeps a grant's total within a signed 64-bit integer. */
const MAX_TOTAL = (1n << 63n) - 1n

export interface MilestoneRow {
  description: string
  /** In tokens, as typed (the locale's decimal mark). */
  amount: string
  recipient: string
}

export interface GrantTerms {
  milestones: MilestoneRow[]
  /** 0x addresses separated by commas, spaces or new lines. */
  reviewers: string
  /** A block height. */
  expiry: string
}

export const emptyMilestone = (): MilestoneRow => ({ description: '', amount: '', recipient: '' })
export const emptyGrantTerms = (): GrantTerms => ({ milestones: [emptyMilestone()], reviewers: '', expiry: '' })

export interface TermsError {
  key: string
  values?: Record<string, string | number>
}

/** Errors by field: "reviewers", "expiry", "milestones", "milestones.<i>.<field>". */
export type TermsErrors = Record<string, TermsError>

export interface TermsRules {
  decimals: number
  symbol: string
  separator: string
  /** The chain's height now, when known: the expiry must be after it. */
  height?: number
}

/** The terms' errors, and the proposal payload (a JSON object of strings) once there are none. */
export function checkGrantTerms(v: GrantTerms, rules: TermsRules): { errors: TermsErrors; payload?: Record<string, string> } {
  const errors: TermsErrors = {}
  if (v.milestones.length < 1 || v.milestones.length > MAX_MILESTONES) errors.milestones = { key: 'milestones.count', values: { max: MAX_MILESTONES } }
  let total = 0n
  const milestones = v.milestones.map((m, i) => {
    const at = `milestones.${i}`
    const description = m.description.trim()
    if (!description) errors[`${at}.description`] = { key: 'description.required' }
    else if ([...description].length > MAX_DESCRIPTION) errors[`${at}.description`] = { key: 'description.tooLong', values: { max: MAX_DESCRIPTION } }
    // eslint-disable-next-line no-control-regex -- the chain allows no control character but the newline
    else if (/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(description)) errors[`${at}.description`] = { key: 'description.control' }
    const amount = parseAmount(m.amount, rules.decimals, rules.separator)
    if (!amount.ok) errors[`${at}.amount`] = { key: `amount.${amount.error}`, values: { symbol: rules.symbol, decimals: rules.decimals } }
    else total += amount.micro
    const recipient = m.recipient.trim()
    if (!recipient) errors[`${at}.recipient`] = { key: 'address.required' }
    else if (!isAddress(recipient)) errors[`${at}.recipient`] = { key: 'address.format' }
    else if (isZeroAddress(recipient)) errors[`${at}.recipient`] = { key: 'address.zero' }
    return { description, amount: amount.ok ? amount.micro.toString() : '', recipient }
  })
  if (total > MAX_TOTAL) errors.milestones = { key: 'milestones.total' }

  const reviewers = v.reviewers.split(/[\s,]+/).filter(Boolean)
  const lower = reviewers.map((r) => r.toLowerCase())
  if (reviewers.length === 0 || reviewers.length > MAX_REVIEWERS) errors.reviewers = { key: 'reviewers.count', values: { max: MAX_REVIEWERS } }
  else if (reviewers.some((r) => !isAddress(r) || isZeroAddress(r))) errors.reviewers = { key: 'reviewers.format' }
  else if (new Set(lower).size !== lower.length) errors.reviewers = { key: 'reviewers.twice' }

  const expiry = v.expiry.trim()
  if (!/^[1-9]\d{0,17}$/.test(expiry)) errors.expiry = { key: 'expiry.format' }
  else if (rules.height !== undefined && Number(expiry) <= rules.height) errors.expiry = { key: 'expiry.past', values: { height: rules.height } }

  if (Object.keys(errors).length) return { errors }
  return { errors, payload: { milestones: JSON.stringify(milestones), reviewers: reviewers.join(','), expiry } }
}
