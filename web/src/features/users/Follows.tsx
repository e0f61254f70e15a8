import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { PreloadLink } from '@/components/PreloadLink'
import { Tabs } from '@/components/Tabs'
import { errorText } from '@/lib/http'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type FollowList, useFollowList, useIsFollowing, useSetFollow } from './follows'

const PAGE_SIZE = 20
const LISTS = ['followers', 'following'] as const

/** Follow or Unfollow for the signed-in user on someone else's profile; nothing when signed out or on one's own. */
export function FollowButton({ login }: { login: string }) {
  const { t } = useTranslation('follows')
  const me = useSignedInUser()
  const other = me !== null && me.username.toLowerCase() !== login.toLowerCase()
  const following = useIsFollowing(login, other)
  const setFollow = useSetFollow(login)
  if (!other) return null
  const on = following.data === true
  return (
    <>
      <Button
        variant={on ? 'outline' : 'primary'}
        aria-pressed={on}
        disabled={following.isPending || setFollow.isPending}
        onClick={() => setFollow.mutate(!on)}
      >
        {on ? t('unfollow') : t('follow')}
      </Button>
      {setFollow.isError && (
        <span role="alert" className="inline-error">
          {t('failed', { error: errorText(setFollow.error) })}
        </span>
      )}
    </>
  )
}

/** A user's followers and the people they follow, with the counts on the tabs. */
export function UserFollows({ login, followers, following }: { login: string; followers: number; following: number }) {
  const { t } = useTranslation('follows')
  const headingId = useId()
  const [list, setList] = useState<FollowList>('followers')
  const [page, setPage] = useState(1)
  const users = useFollowList(login, list, page, PAGE_SIZE)
  const counts = { followers, following }
  return (
    <Card as="section" className="profile-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('title')}</h2>
      <Tabs
        label={t('title')}
        tabs={LISTS.map((id) => ({ id, label: t(`tab.${id}`, { count: counts[id] }) }))}
        selected={list}
        onSelect={(id) => {
          setList(id)
          setPage(1)
        }}
      >
        <Paged query={users} page={page} onPage={setPage} limit={PAGE_SIZE} label={t(`list.${list}`)} empty={t(`empty.${list}`)}>
          {(items) => (
            <ul className="plain-list">
              {items.map((u) => (
                <li key={u.wallet_address || u.login}>
                  <PreloadLink to={`/user/${encodeURIComponent(u.login)}`}>{u.login}</PreloadLink>
                </li>
              ))}
            </ul>
          )}
        </Paged>
      </Tabs>
    </Card>
  )
}
