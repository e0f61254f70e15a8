import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiFetch, apiError, deleteJSON, putJSON } from '@/lib/http'
import { getPage } from '@/lib/forge/api'

/** A user in a followers or following list (Gitea's user shape). */
export interface FollowUser {
  id: number
  login: string
  wallet_address: string
}

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

/** Whether the signed-in user follows login: GET /user/following/{login} answers 204 or 404. */
export function useIsFollowing(login: string, enabled: boolean) {
  return useQuery({
    queryKey: ['is-following', login.toLowerCase()],
    queryFn: async () => {
      const res = await apiFetch(`/api/v1/user/following/${enc(login)}`)
      if (res.status === 404) return false
      if (!res.ok) throw await apiError(res)
      return true
    },
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
