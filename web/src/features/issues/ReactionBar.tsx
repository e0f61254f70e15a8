// The reaction bar under an issue, a pull request or a comment: the
// reactions with their counts (pressing one of your own takes it back) and
// a picker of Gitea's eight kinds for the signed-in.
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { errorText } from '@/lib/http'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { REACTION_EMOJI, REACTIONS, type ReactionTarget, tally, useReactions, useSetReaction } from './tracker'

export function ReactionBar({ owner, repo, target }: { owner: string; repo: string; target: ReactionTarget }) {
  const { t } = useTranslation('tracker')
  const user = useSignedInUser()
  const [picking, setPicking] = useState(false)
  const reactions = useReactions(owner, repo, target)
  const toggle = useSetReaction(owner, repo, target, () => setPicking(false))
  const counts = tally(reactions.data ?? [], user?.username)
  if (reactions.isError) return null // reactions are extra: the page reads without them
  return (
    <div className="reaction-bar" role="group" aria-label={t('reactions.label')}>
      {counts.map((r) => (
        <Button
          key={r.content}
          size="sm"
          variant={r.mine ? 'secondary' : 'ghost'}
          aria-pressed={r.mine}
          title={r.users.join(', ')}
          aria-label={t('reactions.count', { reaction: t(`reactions.kinds.${r.content}`), count: r.count })}
          disabled={!user || toggle.isPending}
          onClick={() => toggle.mutate({ content: r.content, on: !r.mine })}
        >
          <span aria-hidden="true">{REACTION_EMOJI[r.content]}</span> {r.count}
        </Button>
      ))}
      {user && (
        <Button size="sm" variant="ghost" aria-expanded={picking} aria-label={t('reactions.add')} onClick={() => setPicking((p) => !p)}>
          <span aria-hidden="true">☺+</span>
        </Button>
      )}
      {picking && (
        <div className="reaction-picker" role="group" aria-label={t('reactions.pick')}>
          {REACTIONS.map((content) => {
            const mine = counts.some((r) => r.content === content && r.mine)
            return (
              <Button
                key={content}
                size="sm"
                variant="ghost"
                aria-pressed={mine}
                aria-label={t(`reactions.kinds.${content}`)}
                disabled={toggle.isPending}
                onClick={() => toggle.mutate({ content, on: !mine })}
              >
                <span aria-hidden="true">{REACTION_EMOJI[content]}</span>
              </Button>
            )
          })}
        </div>
      )}
      {toggle.isError && (
        <p className="alert-error" role="alert">
          {errorText(toggle.error)}
        </p>
      )}
    </div>
  )
}
