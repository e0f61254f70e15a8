import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { checksumAddress } from '@/lib/chain/address'
import { decimalSeparator, toBigInt, toDecimalString } from '@/lib/chain/amount'
import type { Account, ChainParams } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { TxStatus } from '@/components/TxStatus'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { type TxKind, useChainTx } from '@/lib/chain/tx'
import { type FieldError, type FieldName, FORM_FIELDS, type FormValues, validateTxForm } from './validate'
import '@/components/data.css'
import './wallet.css'

const EMPTY: FormValues = { to: '', target: '', amount: '' }

/**
 * The form of one transaction (send, tip, stake, unstake, treasury deposit):
 * fields checked with the chain's own rules before anything is signed, then
 * signed in the wallet and relayed, with each step and the outcome shown
 * below the form. from is the signed-in user's address.
 */
export function TxForm({
  kind,
  from,
  account,
  params,
  initial,
}: {
  kind: TxKind
  from: string
  account: Account | undefined
  params: ChainParams
  /** Fields filled in from a link, such as a tip from a user's page. */
  initial?: Partial<FormValues>
}) {
  const { t, i18n } = useTranslation('wallet')
  const fmt = useChainFormat()
  const id = useId()
  const tx = useChainTx(from, kind)
  const [values, setValues] = useState<FormValues>({ ...EMPTY, ...initial })
  const [errors, setErrors] = useState<Partial<Record<FieldName, FieldError>>>({})
  const inputs = useRef(new Map<FieldName, HTMLInputElement>())
  const fields = FORM_FIELDS[kind]
  const available = account ? toBigInt(kind === 'Unstake' ? account.staked : account.balance) : 0n
  const { decimals, symbol } = params.token
  const separator = decimalSeparator(i18n.resolvedLanguage)

  const showErrors = (errs: Partial<Record<FieldName, FieldError>>) => {
    setErrors(errs)
    const first = fields.find((f) => errs[f])
    if (first) inputs.current.get(first)?.focus()
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (tx.busy) return
    const checked = validateTxForm(kind, values, {
      decimals,
      symbol,
      separator,
      available,
      availableText: fmt.amount(available),
    })
    if (checked.amount === undefined || Object.keys(checked.errors).length) return showErrors(checked.errors)
    let to: string | undefined
    if (fields.includes('to')) {
      // A mixed-case address carries an EIP-55 checksum; a wrong one is a typo.
      const canonical = await checksumAddress(values.to.trim())
      if (!canonical) return showErrors({ to: { key: 'to.checksum' } })
      to = canonical
    }
    setErrors({})
    const target = fields.includes('target') ? values.target.trim() : undefined
    if (await tx.run({ amount: checked.amount, to, target })) setValues(EMPTY)
  }

  const set = (name: FieldName) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value }))

  const field = (name: FieldName, label: string, hint: string, extra?: ReactNode) => {
    const fieldId = `${id}-${name}`
    const err = errors[name]
    return (
      <Field key={name} label={label} hint={hint} error={err ? t(`errors.${err.key}`, err.values) : undefined} row="field-row" after={extra}>
        <Input
          id={fieldId}
          name={name}
          ref={(el) => {
            if (el) inputs.current.set(name, el)
          }}
          className={name === 'amount' ? 'amount-input' : name === 'to' ? 'mono' : undefined}
          value={values[name]}
          onChange={set(name)}
          autoComplete="off"
          spellCheck={false}
          inputMode={name === 'amount' ? 'decimal' : undefined}
        />
      </Field>
    )
  }

  const availableKey = kind === 'Unstake' ? 'fields.staked' : 'fields.available'
  return (
    <form className="tx-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t(`forms.${kind}.title`)}</h3>
      <p className="muted">{t(`forms.${kind}.lead`)}</p>
      {kind === 'Unstake' && (
        <p className="muted">{params.unbondingBlocks ? t('forms.Unstake.period', { blocks: params.unbondingBlocks }) : t('forms.Unstake.periodUnknown')}</p>
      )}
      <fieldset disabled={tx.busy}>
        {fields.includes('to') && field('to', t('fields.to'), t('fields.toHint'))}
        {fields.includes('target') && field('target', t('fields.target'), t('fields.targetHint'))}
        {field(
          'amount',
          t('fields.amount', { symbol }),
          t(availableKey, { amount: fmt.amount(available) }),
          <Button size="sm" variant="outline" onClick={() => setValues((v) => ({ ...v, amount: toDecimalString(available, decimals, separator) }))} disabled={available === 0n}>
            {t('fields.max')}
          </Button>,
        )}
        <Button type="submit">{t(`forms.${kind}.submit`)}</Button>
      </fieldset>
      <TxStatus state={tx.state} kind={kind} params={params} />
    </form>
  )
}
