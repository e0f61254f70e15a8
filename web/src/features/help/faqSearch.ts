import type { FaqGroup } from './api'

/** Keeps the groups and questions whose question or answer contains every word of the query. */
export function filterFaq(groups: FaqGroup[], query: string): FaqGroup[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return groups
  return groups
    .map((g) => ({
      ...g,
      items: g.items.filter((it) => {
        const hay = `${it.question} ${it.text}`.toLocaleLowerCase()
        return words.every((w) => hay.includes(w))
      }),
    }))
    .filter((g) => g.items.length > 0)
}
