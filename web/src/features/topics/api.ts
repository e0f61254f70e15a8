import { useMutation } from '@tanstack/react-query'
import { putJSON } from '@/lib/http'
import { repoApi, useInvalidateRepo } from '@/lib/forge/api'

/** Gitea's topic rule: a lower-case letter or digit, then letters, digits, dashes and dots; at most 35 characters. */
export const TOPIC_PATTERN = /^[a-z0-9][a-z0-9.-]*$/
export const MAX_TOPIC_LENGTH = 35
export const MAX_TOPICS = 25

/** Splits what someone typed into topics, as Gitea reads them: lower case, no repeats. */
export function parseTopics(text: string): string[] {
  const out: string[] = []
  for (const word of text.split(/[\s,]+/)) {
    const t = word.trim().toLowerCase()
    if (t && !out.includes(t)) out.push(t)
  }
  return out
}

/** The topics that break Gitea's rule. */
export function invalidTopics(topics: string[]): string[] {
  return topics.filter((t) => t.length > MAX_TOPIC_LENGTH || !TOPIC_PATTERN.test(t))
}

/** PUT /repos/{o}/{r}/topics: replaces the list (repo.topics on chain for a public repository). */
export const setTopics = (owner: string, repo: string, topics: string[]) => putJSON<void>(`${repoApi(owner, repo)}/topics`, { topics })

/** Where a topic leads: Explore, filtered to the repositories that carry it. */
export const topicHref = (topic: string) => `/explore?topic=${encodeURIComponent(topic)}`

/** Replaces a repository's topics; onDone runs once the repository is refetched. */
export function useSetTopics(owner: string, repo: string, onDone?: () => void) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({
    mutationFn: (topics: string[]) => setTopics(owner, repo, topics),
    onSuccess: async () => {
      await invalidate()
      onDone?.()
    },
  })
}
