// The sidebar parts of an issue or pull request page that go with the
// tracker: its milestone (a picker for writers), subscribing, pinning.
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { PreloadLink } from '@/components/PreloadLink'
import { Field } from '@/components/Field'
import { Select } from '@/components/Select'
import { type Repository, repoHref } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { useSignedInUser } from '@/stores/useSignedInUser'
import type { IssueParts } from './api'
import { useOpenMilestones, useSetIssueMilestone, useSetPinned, useSetSubscribed, useSubscription } from './tracker'

function SaveError({ error }: { error: unknown }) {
  if (!error) return null
  return (
    <p className="alert-error" role="alert">
      {errorText(error)}
    </p>
  )
}

/** An issue's milestone; writers pick another (or none) from the open ones. */
export function MilestonePicker({ repo, issue }: { repo: Repository; issue: IssueParts }) {
  const { t } = useTranslation('tracker')
  const id = useId()
  const o = repo.owner.login
  const user = useSignedInUser()
  const canEdit = Boolean(user && repo.permissions?.push)
  const open = useOpenMilestones(o, repo.name, canEdit)
  const save = useSetIssueMilestone(o, repo.name, issue.number)
  const current = issue.milestone
  const options = [...(open.data ?? [])]
  if (current && !options.some((m) => m.id === current.id)) options.push(current)
  return (
    <section aria-labelledby={`${id}-h`} className="issue-side-section">
      <h2 id={`${id}-h`}>{t('milestone.title')}</h2>
      {current ? (
        <p>
          <PreloadLink to={`${repoHref.section(o, repo.name, 'milestones')}/${current.id}`}>{current.title}</PreloadLink>
        </p>
      ) : (
        <p className="muted">{t('milestone.none')}</p>
      )}
      {canEdit && (
        <Field label={t('milestone.pick')} labelHidden>
          <Select
            id={`${id}-s`}
            className="input"
            value={current?.id ?? 0}
            disabled={save.isPending || open.isLoading}
            onChange={(e) => save.mutate(Number(e.target.value))}
          >
            <option value={0}>{t('milestone.noMilestone')}</option>
            {options.map((m) => (
              <option key={m.id} value={m.id}>
                {m.title}
              </option>
            ))}
          </Select>
        </Field>
      )}
      <SaveError error={save.error} />
    </section>
  )
}

/** Subscribe to (or unsubscribe from) an issue's news. */
export function SubscribeButton({ repo, number }: { repo: Repository; number: number }) {
  const { t } = useTranslation('tracker')
  const user = useSignedInUser()
  const o = repo.owner.login
  const sub = useSubscription(o, repo.name, number, Boolean(user))
  const save = useSetSubscribed(o, repo.name, number, user?.username ?? '')
  if (!user) return null
  const on = Boolean(sub.data?.subscribed)
  return (
    <section className="issue-side-section" aria-label={t('subscribe.title')}>
      <Button size="sm" variant="outline" aria-pressed={on} disabled={sub.isLoading || save.isPending} onClick={() => save.mutate(!on)}>
        {on ? t('subscribe.unsubscribe') : t('subscribe.subscribe')}
      </Button>
      <p className="muted">{on ? t('subscribe.on') : t('subscribe.off')}</p>
      <SaveError error={save.error} />
    </section>
  )
}

/** Pin an issue at the top of the list (writers). */
export function PinButton({ repo, issue }: { repo: Repository; issue: IssueParts }) {
  const { t } = useTranslation('tracker')
  const user = useSignedInUser()
  const o = repo.owner.login
  const pinned = (issue.pin_order ?? 0) > 0
  const save = useSetPinned(o, repo.name, issue.number)
  if (!user || !repo.permissions?.push) return null
  return (
    <section className="issue-side-section" aria-label={t('pin.title')}>
      <Button size="sm" variant="ghost" aria-pressed={pinned} disabled={save.isPending} onClick={() => save.mutate(!pinned)}>
        {pinned ? t('pin.unpin') : t('pin.pin')}
      </Button>
      <SaveError error={save.error} />
    </section>
  )
}
