// The create-proposal form's rules, checked before anything is signed: the
// chain would refuse the same mistakes, but only after a signature and a
// block. Messages are keys under new.errors.* in the governance namespace.
import { isAddress, isZeroAddress } from '@/lib/chain/address'
import { MAX_MICRO, parseAmount, toBigInt } from '@/lib/chain/amount'
import type { ParamDoc } from './api'
import { COMMUNITY_ROLES, type CommunityRole, type ProposalType, ROLE_ACTIONS, type RoleAction } from './proposals'

export const TITLE_MAX = 200

export interface ProposalValues {
  type: ProposalType
  title: string
  description: string
  paramName: string
  paramValue: string
  to: string
  amount: string
  reason: string
  pubKey: string
  power: string
  account: string
  role: CommunityRole
  roleAction: RoleAction
}

export type ProposalField = Exclude<keyof ProposalValues, 'type'>

/** The fields each type asks for beyond title and description, in order. */
export const TYPE_FIELDS: Record<ProposalType, ProposalField[]> = {
  text: [],
  param: ['paramName', 'paramValue'],
  spend: ['to', 'amount', 'reason'],
  validator: ['pubKey', 'power'],
  role: ['account', 'role', 'roleAction'],
  // The grant's terms have their own editor and check (features/grants).
  grant: [],
}

export const EMPTY: ProposalValues = {
  type: 'text',
  title: '',
  description: '',
  paramName: '',
  paramValue: '',
  to: '',
  amount: '',
  reason: '',
  pubKey: '',
  power: '',
  account: '',
  role: 'ambassador',
  roleAction: 'grant',
}

/**
 * The form's first values: a link may prefill a role proposal
 * (?type=role&role=ambassador&action=grant&account=0x…), as the ambassador
 * program's "Propose me" does; anything else in the query is ignored.
 */
export function initialValues(search: string): ProposalValues {
  const q = new URLSearchParams(search)
  const type = q.get('type') ?? ''
  // A grant starts from the grants feature's template (NewProposalScreen).
  if (type === 'grant') return { ...EMPTY, type: 'grant' }
  if (type !== 'role') return EMPTY
  const role = q.get('role') ?? ''
  const action = q.get('action') ?? ''
  return {
    ...EMPTY,
    type: 'role',
    account: q.get('account') ?? '',
    role: (COMMUNITY_ROLES as readonly string[]).includes(role) ? (role as CommunityRole) : EMPTY.role,
    roleAction: (ROLE_ACTIONS as readonly string[]).includes(action) ? (action as RoleAction) : EMPTY.roleAction,
  }
}

export interface FieldError {
  key: string
  values?: Record<string, string | number>
}

export interface Rules {
  decimals: number
  symbol: string
  /** The locale's decimal mark, the only one an amount may use. */
  separator: string
  /** The changeable parameters, for the parameter-change type. */
  paramDocs: ParamDoc[]
}

/** The checked proposal: its errors by field, and the payload once there are none. */
export function checkProposal(v: ProposalValues, rules: Rules): { errors: Partial<Record<ProposalField, FieldError>>; payload?: Record<string, string> } {
  const errors: Partial<Record<ProposalField, FieldError>> = {}
  const title = v.title.trim()
  if (!title) errors.title = { key: 'title.required' }
  else if ([...title].length > TITLE_MAX) errors.title = { key: 'title.tooLong', values: { max: TITLE_MAX } }
  if (!v.description.trim()) errors.description = { key: 'description.required' }

  let payload: Record<string, string> = {}
  switch (v.type) {
    case 'text':
    case 'grant':
      break
    case 'param': {
      const doc = rules.paramDocs.find((d) => d.name === v.paramName)
      if (!doc) errors.paramName = { key: 'paramName.required' }
      const value = v.paramValue.trim()
      const err = wholeNumberError(value, doc?.min, doc?.max)
      if (err) errors.paramValue = err
      payload = { name: v.paramName, value }
      break
    }
    case 'spend': {
      const to = v.to.trim()
      if (to === '') errors.to = { key: 'to.required' }
      else if (!isAddress(to)) errors.to = { key: 'to.format' }
      else if (isZeroAddress(to)) errors.to = { key: 'to.zero' }
      const amount = parseAmount(v.amount, rules.decimals, rules.separator)
      if (!amount.ok) errors.amount = { key: `amount.${amount.error}`, values: { symbol: rules.symbol, decimals: rules.decimals } }
      if (!v.reason.trim()) errors.reason = { key: 'reason.required' }
      payload = { to, amount: amount.ok ? amount.micro.toString() : '', reason: v.reason.trim() }
      break
    }
    case 'validator': {
      const pubKey = v.pubKey.trim()
      if (pubKey === '') errors.pubKey = { key: 'pubKey.required' }
      else if (ed25519KeyLength(pubKey) !== 32) errors.pubKey = { key: 'pubKey.format' }
      const power = v.power.trim()
      const err = wholeNumberError(power)
      if (err) errors.power = err
      payload = { pubKey, power }
      break
    }
    case 'role': {
      const account = v.account.trim()
      if (account === '') errors.account = { key: 'account.required' }
      else if (!isAddress(account)) errors.account = { key: 'account.format' }
      else if (isZeroAddress(account)) errors.account = { key: 'account.zero' }
      if (!COMMUNITY_ROLES.includes(v.role)) errors.role = { key: 'role.required' }
      if (!ROLE_ACTIONS.includes(v.roleAction)) errors.roleAction = { key: 'roleAction.required' }
      payload = { account, role: v.role, action: v.roleAction }
      break
    }
  }
  return Object.keys(errors).length ? { errors } : { errors, payload }
}

/** A whole number written in decimal without leading zeros, within min and max when given. */
function wholeNumberError(value: string, min?: string | number | bigint, max?: string | number | bigint): FieldError | undefined {
  if (value === '') return { key: 'number.required' }
  if (!/^(0|[1-9]\d*)$/.test(value)) return { key: 'number.format' }
  const n = BigInt(value)
  const lo = min === undefined ? 0n : toBigInt(min)
  const hi = max === undefined ? MAX_MICRO : toBigInt(max)
  if (n < lo || n > hi) return { key: 'number.range', values: { min: lo.toString(), max: hi.toString() } }
  return undefined
}

/** How many bytes a standard base64 string decodes to, or -1 when it is not base64. */
export function ed25519KeyLength(s: string): number {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s) || s.length % 4 !== 0) return -1
  try {
    return atob(s).length
  } catch {
    return -1
  }
}
