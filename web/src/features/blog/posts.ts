import type { Post } from './api'

/** The blog's categories, in tab order; 'all' is the unfiltered list. */
export const CATEGORIES = ['all', 'announcements', 'tutorials', 'case-studies', 'technical'] as const
export type Category = (typeof CATEGORIES)[number]

export function isCategory(value: string | null): value is Category {
  return (CATEGORIES as readonly (string | null)[]).includes(value)
}

/** A post's category as a tab id: front matter may say "Case studies" or "case_studies". */
export function categoryOf(post: Post): string {
  return post.category.trim().toLowerCase().replace(/[\s_]+/g, '-')
}

/** The translation key of a category label (categories.caseStudies, ...). */
export function categoryKey(category: string): string {
  return `categories.${category.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}`
}

/** The posts of a tab, the featured one first and the rest in the server's (newest first) order. */
export function postsIn(posts: Post[], category: Category): Post[] {
  const shown = category === 'all' ? posts : posts.filter((p) => categoryOf(p) === category)
  const featured = shown.find((p) => p.featured)
  return featured ? [featured, ...shown.filter((p) => p !== featured)] : shown
}

/** Up to max other posts, those of the same category first. */
export function relatedPosts(posts: Post[], current: Post, max = 3): Post[] {
  const others = posts.filter((p) => p.slug !== current.slug)
  const same = others.filter((p) => categoryOf(p) === categoryOf(current))
  const rest = others.filter((p) => categoryOf(p) !== categoryOf(current))
  return [...same, ...rest].slice(0, max)
}

/** A post's date in the reader's language; the date is a calendar day, so it is formatted in UTC. */
export function formatPostDate(date: string, language: string | undefined): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : new Date(date)
  if (Number.isNaN(day.getTime())) return date
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(day)
  } catch {
    // An unknown language tag falls back to the browser's default locale.
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' }).format(day)
  }
}
