import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { QueryState } from '@/components/QueryState'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { type Repository } from '@/lib/forge/api'
import { type BranchProtection, type ProtectionInput, splitList, useProtections } from '@/lib/forge/branches'
import { errorText } from '@/lib/http'
import { useDeleteProtection, useSaveProtection } from './api'
import './branches.css'

/** Settings → Branches: the repository's protection rules, to add, edit and delete (owner). */
export function BranchProtectionSettings({ repo }: { repo: Repository }) {
  const { t } = useTranslation('branches')
  const rules = useProtections(repo.owner.login, repo.name)
  const [editing, setEditing] = useState<string | null>(null)
  return (
    <Card as="section" aria-labelledby="branch-rules-h">
      <h2 id="branch-rules-h">{t('rules.heading')}</h2>
      <p className="muted">{t('rules.lead')}</p>
      <QueryState query={rules}>
        {(list) => (
          <>
            {list.length === 0 && <p className="muted">{t('rules.empty')}</p>}
            <ul className="plain-list branch-rules">
              {list.map((r) =>
                editing === r.rule_name ? (
                  <li key={r.rule_name}>
                    <RuleForm repo={repo} rule={r} onDone={() => setEditing(null)} />
                  </li>
                ) : (
                  <RuleRow key={r.rule_name} repo={repo} rule={r} onEdit={() => setEditing(r.rule_name)} />
                ),
              )}
            </ul>
            {editing === null && <RuleForm repo={repo} onDone={() => {}} />}
          </>
        )}
      </QueryState>
    </Card>
  )
}

function RuleRow({ repo, rule, onEdit }: { repo: Repository; rule: BranchProtection; onEdit: () => void }) {
  const { t } = useTranslation('branches')
  const [confirming, setConfirming] = useState(false)
  const del = useDeleteProtection(repo.owner.login, repo.name, rule.rule_name)
  return (
    <li className="branch-rule">
      <strong className="mono">{rule.rule_name}</strong>
      <span className="muted">
        {' '}
        {rule.enable_push ? (rule.push_whitelist_usernames.length > 0 ? t('rules.pushWhitelist', { users: rule.push_whitelist_usernames.join(', ') }) : t('rules.pushAll')) : t('rules.pushOff')}
        {rule.enable_status_check && rule.status_check_contexts.length > 0 && ` · ${t('rules.checks', { contexts: rule.status_check_contexts.join(', ') })}`}
        {rule.required_approvals > 0 && ` · ${t('rules.approvals', { n: rule.required_approvals })}`}
      </span>{' '}
      {confirming ? (
        <span role="group" aria-label={t('rules.confirmDelete', { branch: rule.rule_name })}>
          {t('rules.confirmDelete', { branch: rule.rule_name })}{' '}
          <Button size="sm" variant="danger" disabled={del.isPending} onClick={() => del.mutate()}>
            {t('delete.submit')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            {t('cancel')}
          </Button>
        </span>
      ) : (
        <>
          <Button size="sm" variant="ghost" onClick={onEdit}>
            {t('rules.edit')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
            {t('delete.open')}
          </Button>
        </>
      )}
      {del.isError && (
        <p className="alert-error" role="alert">
          {errorText(del.error)}
        </p>
      )}
    </li>
  )
}

function RuleForm({ repo, rule, onDone }: { repo: Repository; rule?: BranchProtection; onDone: () => void }) {
  const { t } = useTranslation('branches')
  const id = useId()
  const [branch, setBranch] = useState(rule?.rule_name ?? '')
  const [push, setPush] = useState(rule?.enable_push ?? false)
  const [whitelist, setWhitelist] = useState(rule?.push_whitelist_usernames.join(', ') ?? '')
  const [checks, setChecks] = useState(rule?.status_check_contexts.join(', ') ?? '')
  const [approvals, setApprovals] = useState(String(rule?.required_approvals ?? 0))
  const input = (): ProtectionInput => {
    const users = push ? splitList(whitelist) : []
    const contexts = splitList(checks)
    return {
      rule_name: branch.trim(),
      enable_push: push,
      enable_push_whitelist: users.length > 0,
      push_whitelist_usernames: users,
      enable_status_check: contexts.length > 0,
      status_check_contexts: contexts,
      required_approvals: Math.max(0, Number.parseInt(approvals, 10) || 0),
    }
  }
  const save = useSaveProtection(repo.owner.login, repo.name, rule?.rule_name, () => {
    if (!rule) setBranch('')
    onDone()
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (branch.trim()) save.mutate(input())
  }
  return (
    <form onSubmit={submit} aria-label={rule ? t('rules.editLabel', { branch: rule.rule_name }) : t('rules.add')} className="branch-rule-form">
      {!rule && <h3>{t('rules.add')}</h3>}
      <Field label={t('rules.branch')} hint={t('rules.branchHelp')}>
        <Input id={`${id}-b`} value={branch} disabled={Boolean(rule)} maxLength={255} autoComplete="off" onChange={(e) => setBranch(e.target.value)} />
      </Field>
      <label className="field-check">
        <Input type="checkbox" checked={push} onChange={(e) => setPush(e.target.checked)} /> {t('rules.enablePush')}
      </label>
      {push && (
        <Field label={t('rules.whitelist')} hint={t('rules.whitelistHelp')}>
          <Input id={`${id}-w`} value={whitelist} autoComplete="off" onChange={(e) => setWhitelist(e.target.value)} />
        </Field>
      )}
      <Field label={t('rules.contexts')} hint={t('rules.contextsHelp')}>
        <Input id={`${id}-c`} value={checks} autoComplete="off" onChange={(e) => setChecks(e.target.value)} />
      </Field>
      <Field label={t('rules.requiredApprovals')}>
        <Input id={`${id}-a`} type="number" min={0} max={100} value={approvals} onChange={(e) => setApprovals(e.target.value)} />
      </Field>
      {save.isError && (
        <p className="alert-error" role="alert">
          {errorText(save.error)}
        </p>
      )}
      <Button type="submit" disabled={!branch.trim() || save.isPending}>
        {rule ? t('rules.save') : t('rules.create')}
      </Button>{' '}
      {rule && (
        <Button variant="ghost" onClick={onDone}>
          {t('cancel')}
        </Button>
      )}
    </form>
  )
}
