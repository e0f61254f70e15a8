import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { checkGrantTerms, emptyGrantTerms, type GrantTerms, GrantTermsEditor, type TermsErrors } from '@/features/grants'
import { MarkdownEditor } from '@/features/issues'
import { nav } from '@/lib/forge/nav'
import { checksumAddress } from '@/lib/chain/address'
import { decimalSeparator, formatAmount, toBigInt } from '@/lib/chain/amount'
import { type Account, useAccount, useChainStatus } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { TxStatus } from '@/components/TxStatus'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { useChainTx } from '@/lib/chain/tx'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type GovChainParams, type GovParams, type ParamDoc, proposalHref, useGovParams, useParamDocs } from './api'
import { checkProposal, type FieldError, initialValues, type ProposalField, type ProposalValues, TITLE_MAX, TYPE_FIELDS } from './proposalForm'
import { COMMUNITY_ROLES, PROPOSAL_TYPES, type ProposalType, ROLE_ACTIONS } from './proposals'
// The Markdown editor's styles, and the wallet's amount list and transaction status.
import '@/components/data.css'
import './governance.css'

/** The form's first values: a link may prefill a role proposal (initialValues); a grant starts from the grants feature's template. */
function useInitialValues(): ProposalValues {
  const { t } = useTranslation('grants')
  const initial = initialValues(window.location.search)
  if (initial.type !== 'grant') return initial
  return { ...initial, title: t('template.title'), description: t('template.description') }
}

/** /governance/new: a proposal, checked here, then signed as a Propose transaction with the deposit. */
export default function NewProposalScreen() {
  const { t } = useTranslation('governance')
  useDocumentTitle(t('new.title'))
  const user = useSignedInUser()
  return (
    <div className="stack">
      <PageHeader
        title={t('new.title')}
        lead={t('new.lead')}
        actions={
          <PreloadLink className="btn btn-outline btn-md" to="/governance">
            {t('back')}
          </PreloadLink>
        }
      />
      {!user ? (
        <SignInNotice message={t('new.signedOut')} />
      ) : !user.walletAddress ? (
        <Card>
          <p>{t('new.noWallet')}</p>
        </Card>
      ) : (
        <Proposer address={user.walletAddress} />
      )}
    </div>
  )
}

function Proposer({ address }: { address: string }) {
  const { t } = useTranslation('governance')
  const params = useGovParams()
  const account = useAccount(address)
  return (
    <QueryState query={params}>
      {(p) =>
        p.gov ? (
          <div className="proposal-form-layout">
            <Card>
              <ProposalForm from={address} params={p} gov={p.gov} account={account.data} />
            </Card>
            <Requirements gov={p.gov} account={account} />
          </div>
        ) : (
          <p className="alert-error" role="alert">
            {t('new.unsupported')}
          </p>
        )
      }
    </QueryState>
  )
}

/** What proposing takes (the deposit and the minimum stake) beside what the user has. */
function Requirements({ gov, account }: { gov: GovParams; account: ReturnType<typeof useAccount> }) {
  const { t } = useTranslation('governance')
  const fmt = useChainFormat()
  const headingId = useId()
  const a = account.data
  return (
    <Card as="section" aria-labelledby={headingId} className="proposal-requirements">
      <h2 id={headingId}>{t('new.requirements.title')}</h2>
      <dl className="amount-list">
        <div>
          <dt>{t('new.requirements.deposit')}</dt>
          <dd className="num" data-testid="gov-deposit">
            {fmt.amount(gov.proposalDeposit)}
          </dd>
        </div>
        <div>
          <dt>{t('new.requirements.minStake')}</dt>
          <dd className="num" data-testid="gov-min-stake">
            {fmt.amount(gov.minProposerStake)}
          </dd>
        </div>
        <div>
          <dt>{t('new.requirements.yourStake')}</dt>
          <dd className="num" data-testid="gov-your-stake">
            {a ? fmt.amount(a.staked) : t('state.loading', { ns: 'common' })}
          </dd>
        </div>
        <div>
          <dt>{t('new.requirements.yourBalance')}</dt>
          <dd className="num" data-testid="gov-your-balance">
            {a ? fmt.amount(a.balance) : t('state.loading', { ns: 'common' })}
          </dd>
        </div>
      </dl>
      <p className="muted">{t('new.requirements.depositNote')}</p>
      {a && shortfalls(gov, a).map((key) => <ShortfallNote key={key} which={key} gov={gov} account={a} />)}
    </Card>
  )
}

type Shortfall = 'stake' | 'balance'

function shortfalls(gov: GovParams, a: Account): Shortfall[] {
  const out: Shortfall[] = []
  if (toBigInt(a.staked) < toBigInt(gov.minProposerStake)) out.push('stake')
  if (toBigInt(a.balance) < toBigInt(gov.proposalDeposit)) out.push('balance')
  return out
}

function ShortfallNote({ which, gov, account }: { which: Shortfall; gov: GovParams; account: Account }) {
  const { t } = useTranslation('governance')
  const fmt = useChainFormat()
  return (
    <p className="alert-error">
      {which === 'stake'
        ? t('new.shortfall.stake', { min: fmt.amount(gov.minProposerStake), staked: fmt.amount(account.staked) })
        : t('new.shortfall.balance', { deposit: fmt.amount(gov.proposalDeposit), balance: fmt.amount(account.balance) })}{' '}
      <PreloadLink to="/wallet">{t('new.shortfall.wallet')}</PreloadLink>
    </p>
  )
}

function ProposalForm({ from, params, gov, account }: { from: string; params: GovChainParams; gov: GovParams; account: Account | undefined }) {
  const { t, i18n } = useTranslation('governance')
  const id = useId()
  const tx = useChainTx(from, 'Propose')
  const docs = useParamDocs()
  const [values, setValues] = useState<ProposalValues>(useInitialValues())
  const [grant, setGrant] = useState<GrantTerms>(emptyGrantTerms)
  const [grantErrors, setGrantErrors] = useState<TermsErrors>({})
  const [termsFocus, setTermsFocus] = useState(0)
  const status = useChainStatus()
  const [errors, setErrors] = useState<Partial<Record<ProposalField, FieldError>>>({})
  const [blocked, setBlocked] = useState<Shortfall[]>([])
  const [locating, setLocating] = useState(false)
  const controls = useRef(new Map<ProposalField, HTMLElement>())
  const { decimals, symbol } = params.token
  const separator = decimalSeparator(i18n.resolvedLanguage)
  const fields: ProposalField[] = ['title', 'description', ...TYPE_FIELDS[values.type]]

  const set = (name: keyof ProposalValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value }))
  const register = (name: ProposalField) => (el: HTMLElement | null) => {
    if (el) controls.current.set(name, el)
  }

  const showErrors = (errs: Partial<Record<ProposalField, FieldError>>) => {
    setErrors(errs)
    const first = fields.find((f) => errs[f])
    const el = first && controls.current.get(first)
    // The description's control is the editor; its textarea takes the focus.
    ;(el?.querySelector('textarea') ?? el)?.focus()
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (tx.busy || locating) return
    const checked = checkProposal(values, { decimals, symbol, separator, paramDocs: docs.data ?? [] })
    const terms = values.type === 'grant' ? checkGrantTerms(grant, { decimals, symbol, separator, height: status.data?.height }) : undefined
    setGrantErrors(terms?.errors ?? {})
    if (!checked.payload) return showErrors(checked.errors)
    if (terms && !terms.payload) {
      setErrors({})
      setTermsFocus((n) => n + 1)
      return
    }
    if (terms?.payload) checked.payload = terms.payload
    if (values.type === 'spend') {
      // A mixed-case address carries an EIP-55 checksum; a wrong one is a typo.
      const canonical = await checksumAddress(checked.payload.to)
      if (!canonical) return showErrors({ to: { key: 'to.checksum' } })
      checked.payload.to = canonical
    }
    if (values.type === 'role') {
      const canonical = await checksumAddress(checked.payload.account)
      if (!canonical) return showErrors({ account: { key: 'account.checksum' } })
      checked.payload.account = canonical
    }
    setErrors({})
    const short = account ? shortfalls(gov, account) : []
    setBlocked(short)
    if (short.length) return
    const result = await tx.run({
      proposalType: values.type,
      title: values.title.trim(),
      description: values.description,
      payload: JSON.stringify(checked.payload),
      deposit: toBigInt(gov.proposalDeposit),
    })
    if (!result) return
    setLocating(true)
    nav.go(result.proposalId ? proposalHref(result.proposalId) : '/governance')
  }

  const error = (name: ProposalField) => {
    const err = errors[name]
    return err ? (
      <span id={`${id}-${name}-error`} className="field-error">
        {t(`new.errors.${err.key}`, err.values)}
      </span>
    ) : null
  }
  const described = (name: ProposalField, hint = false) =>
    [hint ? `${id}-${name}-hint` : '', errors[name] ? `${id}-${name}-error` : ''].filter(Boolean).join(' ') || undefined
  const message = (name: ProposalField) => {
    const err = errors[name]
    return err ? t(`new.errors.${err.key}`, err.values) : undefined
  }
  const input = (name: ProposalField, label: string, opts: { hint?: ReactNode; mono?: boolean; decimal?: boolean } = {}) => (
    <Field key={name} label={label} hint={opts.hint} error={message(name)}>
      <Input
        id={`${id}-${name}`}
        ref={register(name)}
        className={opts.mono ? 'mono' : undefined}
        value={values[name]}
        onChange={set(name)}
        autoComplete="off"
        spellCheck={false}
        inputMode={opts.decimal ? 'decimal' : undefined}
      />
    </Field>
  )

  const doc = docs.data?.find((d) => d.name === values.paramName)
  return (
    <form className="proposal-form" onSubmit={(e) => void submit(e)} noValidate aria-label={t('new.title')}>
      <fieldset disabled={tx.busy || locating}>
        <Field label={t('new.type')} hint={t(`new.typeHints.${values.type}`)}>
          <Select id={`${id}-type`} value={values.type} onChange={(e) => setValues((v) => ({ ...v, type: e.target.value as ProposalType }))}>
            {PROPOSAL_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`types.${type}`)}
              </option>
            ))}
          </Select>
        </Field>
        {input('title', t('new.titleLabel'), { hint: t('new.titleHint', { max: TITLE_MAX }) })}
        <div ref={register('description')} className="proposal-description">
          <MarkdownEditor label={t('new.descriptionLabel')} value={values.description} onChange={(description) => setValues((v) => ({ ...v, description }))} rows={10} />
          {error('description')}
        </div>

        {values.type === 'param' && (
          <>
            <div className="field">
              <label htmlFor={`${id}-paramName`}>{t('new.paramName')}</label>
              <QueryState query={docs}>
                {(list) => (
                  <Select
                    id={`${id}-paramName`}
                    ref={register('paramName')}
                    value={values.paramName}
                    onChange={set('paramName')}
                    aria-invalid={errors.paramName ? true : undefined}
                    aria-describedby={described('paramName', !!doc)}
                  >
                    <option value="">{t('new.paramChoose')}</option>
                    {groups(list).map(([group, items]) => (
                      <optgroup key={group} label={t(`paramGroups.${group}`, { defaultValue: group })}>
                        {items.map((d) => (
                          <option key={d.name} value={d.name}>
                            {d.name}
                          </option>
                        ))}
                      </optgroup>
                    ))}
                  </Select>
                )}
              </QueryState>
              {doc && (
                <span id={`${id}-paramName-hint`} className="muted field-hint">
                  <ParamHint doc={doc} decimals={decimals} symbol={symbol} />
                </span>
              )}
              {error('paramName')}
            </div>
            {input('paramValue', t('new.paramValue'), {
              hint: doc ? t(`units.${doc.unit}`, { defaultValue: doc.unit }) : t('new.paramValueHint'),
              mono: true,
            })}
          </>
        )}
        {values.type === 'spend' && (
          <>
            {input('to', t('new.to'), { hint: t('new.toHint'), mono: true })}
            {input('amount', t('new.amount', { symbol }), { decimal: true })}
            {input('reason', t('new.reason'), { hint: t('new.reasonHint') })}
          </>
        )}
        {values.type === 'validator' && (
          <>
            {input('pubKey', t('new.pubKey'), { hint: t('new.pubKeyHint'), mono: true })}
            {input('power', t('new.power'), { hint: t('new.powerHint') })}
          </>
        )}
        {values.type === 'role' && (
          <>
            {input('account', t('new.account'), { hint: t('new.accountHint'), mono: true })}
            <Field label={t('new.role')} error={message('role')}>
              <Select id={`${id}-role`} ref={register('role')} value={values.role} onChange={set('role')}>
                {COMMUNITY_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {t(`roles.${role}`)}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label={t('new.roleAction')} error={message('roleAction')}>
              <Select id={`${id}-roleAction`} ref={register('roleAction')} value={values.roleAction} onChange={set('roleAction')}>
                {ROLE_ACTIONS.map((action) => (
                  <option key={action} value={action}>
                    {t(`roleActions.${action}`)}
                  </option>
                ))}
              </Select>
            </Field>
          </>
        )}

        {values.type === 'grant' && (
          <GrantTermsEditor value={grant} onChange={setGrant} errors={grantErrors} symbol={symbol} height={status.data?.height} focusRequest={termsFocus} />
        )}

        {blocked.length > 0 && (
          <div role="alert">
            {account && blocked.map((which) => <ShortfallNote key={which} which={which} gov={gov} account={account} />)}
          </div>
        )}
        <Button type="submit">{t('new.submit')}</Button>
        <p className="muted">{t('new.submitNote', { deposit: `${formatAmount(gov.proposalDeposit, decimals, i18n.resolvedLanguage)} ${symbol}` })}</p>
      </fieldset>
      <TxStatus state={tx.state} kind="Propose" params={params} />
      {locating && (
        <p className="muted" role="status">
          {t('new.opening')}
        </p>
      )}
    </form>
  )
}

/** A parameter's explanation, current value and bounds. */
function ParamHint({ doc, decimals, symbol }: { doc: ParamDoc; decimals: number; symbol: string }) {
  const { t, i18n } = useTranslation('governance')
  // Micro-units also read as tokens.
  const show = (v: string | number | bigint) => (doc.unit === 'micro' ? `${v} (${formatAmount(v, decimals, i18n.resolvedLanguage)} ${symbol})` : String(v))
  return (
    <>
      {doc.doc}
      {doc.value !== undefined && <> {t('new.paramCurrent', { value: show(doc.value) })}</>}
      {doc.min !== undefined && doc.max !== undefined && <> {t('new.paramRange', { min: String(doc.min), max: String(doc.max) })}</>}
    </>
  )
}

/** The parameters by group, in the order the API lists them. */
function groups(docs: ParamDoc[]): [string, ParamDoc[]][] {
  const out = new Map<string, ParamDoc[]>()
  for (const d of docs) out.set(d.group, [...(out.get(d.group) ?? []), d])
  return [...out]
}
