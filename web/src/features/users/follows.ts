import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { deleteJSON, getJSON, putJSON } from '@/lib/http'
import { getPage } from '@/lib/forge/api'

/** A user in a followers or following list (Gitea's user shape). */
export type FollowUser = Schema<'ForgeUser'>

export type FollowList = 'followers' | 'following'

const enc = encodeURIComponent

/** A page of login's followers or of whom login follows. */
export function useFollowList(login: string, list: FollowList, page: number, limit: number) {
  return useQuery({
    queryKey: ['follows', login.toLowerCase(), list, page, limit],
    queryFn: () => getPage<FollowUser>(`/api/v1/users/${enc(login)}/${list}`, {}, page, limit),
    placeholderData: keepPreviousData,
  })
}

/**
 * Whether the signed-in user follows login: the user's followed_by_me,
 * which tells it without the 404 that GET /user/following/{login} answers
 * for no (and the browser logs as an error on every profile).
 */
export function useIsFollowing(login: string, enabled: boolean) {
  return useQuery({
    queryKey: ['is-following', login.toLowerCase()],
    queryFn: async () => (await getJSON<{ followed_by_me?: boolean }>(`/api/v1/users/${enc(login)}`)).followed_by_me === true,
    enabled,
  })
}

/** Follows (on) or unfollows login, then refreshes the counts and lists that change. */
export function useSetFollow(login: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (on: boolean) => (on ? putJSON<void>(`/api/v1/user/following/${enc(login)}`, undefined) : deleteJSON(`/api/v1/user/following/${enc(login)}`)),
    onSuccess: (_data, on) => {
      client.setQueryData(['is-following', login.toLowerCase()], on)
      void client.invalidateQueries({ queryKey: ['user'] })
      void client.invalidateQueries({ queryKey: ['follows'] })
    },
  })
}
