import { useTranslation } from 'react-i18next'
import { type Repository } from '@/lib/forge/api'
import { type BranchProtection, useProtections } from '@/lib/forge/branches'
import { safeTarget, useCombinedStatus } from '@/lib/forge/statuses'
import { approvalsOf, type PullRequest, useReviews, type Verdicts } from './api'

/**
 * What the base branch's protection rule still asks of the pull request
 * before it merges: each required check's state on the head, and the
 * approvals. Nothing when the base branch has no rule. The chain decides;
 * this says why in advance.
 */
export function MergeRequirements({ repo, pr }: { repo: Repository; pr: PullRequest }) {
  const rules = useProtections(repo.owner.login, repo.name)
  const rule = rules.data?.find((r) => r.rule_name === pr.base.ref)
  // Only a rule loads the texts that explain it.
  return rule ? <Requirements repo={repo} pr={pr} rule={rule} /> : null
}

function Requirements({ repo, pr, rule }: { repo: Repository; pr: PullRequest; rule: BranchProtection }) {
  const { t } = useTranslation(['branches', 'statuses'])
  const o = repo.owner.login
  const status = useCombinedStatus(o, repo.name, pr.head.sha, rule.enable_status_check)
  const reviews = useReviews(o, repo.name, pr.number)
  const items: { ok: boolean; text: string; href?: string | null }[] = []
  if (rule.enable_status_check) {
    for (const context of rule.status_check_contexts) {
      const s = status.data?.statuses.find((x) => x.context === context)
      items.push(
        s
          ? { ok: s.status === 'success', text: t('merge.checkState', { context, state: t(`statuses:state.${s.status}`) }), href: safeTarget(s.target_url) }
          : { ok: false, text: t('merge.checkMissing', { context }) },
      )
    }
  }
  if (rule.required_approvals > 0) {
    const have = approvalsOf(reviews.data ?? [])
    items.push({ ok: have >= rule.required_approvals, text: t('merge.approvals', { have, need: rule.required_approvals }) })
  }
  if (items.length === 0) return null
  return (
    <div className="merge-requirements" aria-label={t('merge.heading', { branch: pr.base.ref })} role="group">
      <p>
        <strong>{t('merge.heading', { branch: pr.base.ref })}</strong>
      </p>
      <ul className="plain-list">
        {items.map((it) => (
          <li key={it.text} className={it.ok ? 'merge-ok' : 'merge-missing'}>
            <span aria-hidden="true">{it.ok ? '✓ ' : '✗ '}</span>
            {/* The check's own page (an Actions run, another CI's build) where it says why. */}
            {it.href ? <a href={it.href}>{it.text}</a> : it.text}
          </li>
        ))}
      </ul>
      {items.every((it) => it.ok) && <p className="muted">{t('merge.met')}</p>}
    </div>
  )
}

/**
 * Where the reviewers stand, each by their latest verdict: who asked for
 * changes (first: the merge box warns of them) and who approved. Nothing
 * when no one has given a verdict.
 */
export function ReviewVerdicts({ verdicts, id }: { verdicts: Verdicts; id?: string }) {
  const { t } = useTranslation('pulls')
  const names = (users: Verdicts['approved']) => users.map((u) => u.login).join(', ')
  if (verdicts.changesRequested.length === 0 && verdicts.approved.length === 0) return null
  return (
    <ul className="plain-list merge-verdicts" id={id} aria-label={t('merge.verdicts')}>
      {verdicts.changesRequested.length > 0 && (
        <li className="merge-changes-requested">
          <span aria-hidden="true">✗ </span>
          <strong>{t('merge.changesRequested', { users: names(verdicts.changesRequested) })}</strong>
        </li>
      )}
      {verdicts.approved.length > 0 && (
        <li className="merge-ok">
          <span aria-hidden="true">✓ </span>
          {t('merge.approvedBy', { users: names(verdicts.approved) })}
        </li>
      )}
    </ul>
  )
}
