import { isAddress, isZeroAddress } from '@/lib/chain/address'
import { parseAmount } from '@/lib/chain/amount'
import { targetError } from './target'
import type { TxKind } from '@/lib/chain/tx'

export type FieldName = 'to' | 'target' | 'amount'

/** A message key under errors.* in the wallet namespace, with its values. */
export interface FieldError {
  key: string
  values?: Record<string, string | number>
}

/** The fields each transaction's form asks for, in order. */
export const FORM_FIELDS: Record<TxKind, FieldName[]> = {
  Transfer: ['to', 'amount'],
  Tip: ['to', 'target', 'amount'],
  Stake: ['amount'],
  Unstake: ['amount'],
  TreasuryDeposit: ['amount'],
  // Signed by the governance and bounty pages' own forms, not by TxForm.
  Propose: [],
  Vote: [],
  BountyFund: [],
  BountyRefund: [],
  // Signed by the grants page's approve button.
  GrantApprove: [],
}

export interface AmountRules {
  decimals: number
  symbol: string
  /** The locale's decimal mark, the only one accepted. */
  separator: string
  /** What the amount may not exceed: the balance, or for an Unstake the stake. */
  available: bigint
  /** available as the page shows it. */
  availableText: string
}

export type FormValues = Record<FieldName, string>

/** The form's errors by field, and the amount in micro-units when it is valid. */
export function validateTxForm(kind: TxKind, values: FormValues, rules: AmountRules): { errors: Partial<Record<FieldName, FieldError>>; amount?: bigint } {
  const errors: Partial<Record<FieldName, FieldError>> = {}
  const fields = FORM_FIELDS[kind]
  if (fields.includes('to')) {
    const to = values.to.trim()
    if (to === '') errors.to = { key: 'to.required' }
    else if (!isAddress(to)) errors.to = { key: 'to.format' }
    else if (isZeroAddress(to)) errors.to = { key: 'to.zero' }
  }
  if (fields.includes('target')) {
    const err = targetError(values.target.trim())
    if (err) {
      const { code, ...rest } = err
      errors.target = { key: `target.${code}`, values: rest }
    }
  }
  const parsed = parseAmount(values.amount, rules.decimals, rules.separator)
  if (!parsed.ok) {
    errors.amount = { key: `amount.${parsed.error}`, values: { symbol: rules.symbol, decimals: rules.decimals } }
    return { errors }
  }
  if (parsed.micro > rules.available) {
    errors.amount = { key: kind === 'Unstake' ? 'amount.moreThanStaked' : 'amount.moreThanBalance', values: { available: rules.availableText } }
    return { errors }
  }
  return { errors, amount: parsed.micro }
}
