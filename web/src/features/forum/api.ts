import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Optional, Schema } from '@/lib/apiSchema'
import { deleteJSON, getJSON, patchJSON, postJSON, putJSON } from '@/lib/http'
import { getPage } from '@/lib/forge/api'

/** The forum's categories, in the order the server lists them. */
export const CATEGORIES = ['general', 'help', 'showcase', 'development', 'announcements'] as const
export type Category = (typeof CATEGORIES)[number]

/** A topic as lists show it (GET /api/v1/forum/topics). */
// The document types category as any string; the server keeps it to CATEGORIES.
export type TopicSummary = Omit<Schema<'ForumTopic'>, 'category'> & { category: Category }

/** A topic with its text and what the signed-in user may do with it. */
export type Topic = Omit<Schema<'ForumTopicDetail'>, 'category'> & { category: Category }

/** A reply in a topic. */
export type Post = Optional<Schema<'ForumPost'>, 'hidden_reason'>

/** The text one edit replaced (n 1 is the first edit). */
export type Revision = Schema<'ForumRevision'>

export type CategoryCount = Omit<Schema<'ForumCategory'>, 'name'> & { name: Category }

export const TOPICS_PAGE = 20
export const POSTS_PAGE = 20
/** The most a title may hold, in characters, and a body, in bytes (the chain's limits). */
export const MAX_TITLE = 255
export const MAX_BODY = 65536
/** The longest search the server takes, in bytes. */
export const MAX_QUERY = 100

const API = '/api/v1/forum'
export const topicPath = (id: number) => `${API}/topics/${id}`
const postPath = (id: number) => `${API}/posts/${id}`

export const forumKeys = {
  all: ['forum'] as const,
  categories: ['forum', 'categories'] as const,
  topics: (category: string, q: string, page: number) => ['forum', 'topics', category, q, page] as const,
  topic: (id: number) => ['forum', 'topic', id] as const,
  posts: (id: number, page: number) => ['forum', 'topic', id, 'posts', page] as const,
  revisions: (kind: 'topics' | 'posts', id: number) => ['forum', kind, id, 'revisions'] as const,
}

export function useCategories() {
  return useQuery({ queryKey: forumKeys.categories, queryFn: () => getJSON<CategoryCount[]>(`${API}/categories`) })
}

/** A page of topics, pinned first, then by latest activity. */
export function useTopics(category: string, q: string, page: number) {
  return useQuery({
    queryKey: forumKeys.topics(category, q, page),
    queryFn: () => getPage<TopicSummary>(`${API}/topics`, { category, q }, page, TOPICS_PAGE),
    placeholderData: keepPreviousData,
  })
}

export function useTopic(id: number) {
  return useQuery({ queryKey: forumKeys.topic(id), queryFn: () => getJSON<Topic>(topicPath(id)), enabled: id > 0 })
}

/** A page of a topic's replies, oldest first. */
export function usePosts(id: number, page: number) {
  return useQuery({
    queryKey: forumKeys.posts(id, page),
    queryFn: () => getPage<Post>(`${topicPath(id)}/posts`, {}, page, POSTS_PAGE),
    placeholderData: keepPreviousData,
    enabled: id > 0,
  })
}

/** The texts the edits of a topic or reply replaced, newest first (the first page: up to 50). */
export function useRevisions(kind: 'topics' | 'posts', id: number) {
  return useQuery({
    queryKey: forumKeys.revisions(kind, id),
    queryFn: async () => (await getPage<Revision>(`${API}/${kind}/${id}/revisions`, {}, 1, 50)).items,
  })
}

/** Invalidates everything the forum shows after a write. */
export function useInvalidateForum() {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: forumKeys.all })
}

export const createTopic = (input: { category: Category; title: string; body: string }) => postJSON<Topic>(`${API}/topics`, input)
export const editTopic = (id: number, input: { title?: string; body?: string }) => patchJSON<Topic>(topicPath(id), input)
export const createPost = (topic: number, input: { body: string; quote?: number }) => postJSON<Post>(`${topicPath(topic)}/posts`, input)
export const editPost = (id: number, body: string) => patchJSON<Post>(postPath(id), { body })
export const markAnswer = (topic: number, post: number) => putJSON<Topic>(`${topicPath(topic)}/answer`, { post })
export const unmarkAnswer = (topic: number) => deleteJSON(`${topicPath(topic)}/answer`)
export const moveTopic = (topic: number, category: Category) => postJSON<Topic>(`${topicPath(topic)}/move`, { category })

/** Pins or locks a topic (on) or undoes it: moderators only. */
export function setTopicFlag(topic: number, flag: 'pin' | 'lock', on: boolean) {
  const path = `${topicPath(topic)}/${flag}`
  return on ? putJSON<Topic>(path, {}) : deleteJSON(path)
}

/** A reply quoting post: its text as a Markdown quote, then a blank line for the answer. */
export function quoteOf(post: Post): string {
  const quoted = post.body
    .split('\n')
    .map((line) => `> ${line}`.trimEnd())
    .join('\n')
  return `@${post.author.login}:\n${quoted}\n\n`
}

// --- mutations: each refetches the forum; a screen's own follow-up comes in as onSuccess ---

export function useCreateTopic(onSuccess?: (topic: Topic) => void) {
  return useMutation({ mutationFn: (input: { category: Category; title: string; body: string }) => createTopic(input), onSuccess })
}

/** Edits a topic; onDone runs once the forum is refetched. */
export function useEditTopic(id: number, onDone?: () => void) {
  const invalidate = useInvalidateForum()
  return useMutation({
    mutationFn: (input: { title?: string; body?: string }) => editTopic(id, input),
    onSuccess: async () => {
      await invalidate()
      onDone?.()
    },
  })
}

/** Replies to a topic; onSuccess runs first (clearing the box), then the forum is refetched. */
export function useCreatePost(topic: number, onSuccess?: () => void) {
  const invalidate = useInvalidateForum()
  return useMutation({
    mutationFn: (input: { body: string; quote?: number }) => createPost(topic, input),
    onSuccess: async () => {
      onSuccess?.()
      await invalidate()
    },
  })
}

/** Edits a post; onDone runs once the forum is refetched. */
export function useEditPost(id: number, onDone?: () => void) {
  const invalidate = useInvalidateForum()
  return useMutation({
    mutationFn: (body: string) => editPost(id, body),
    onSuccess: async () => {
      await invalidate()
      onDone?.()
    },
  })
}

/** Marks a post as the topic's answer, or (when it is) takes the mark back. */
export function useToggleAnswer(topic: number, post: Pick<Post, 'id' | 'is_answer'>) {
  const invalidate = useInvalidateForum()
  return useMutation({
    mutationFn: async (): Promise<unknown> => (post.is_answer ? unmarkAnswer(topic) : markAnswer(topic, post.id)),
    onSuccess: () => invalidate(),
  })
}

export type ModeratorAction = { flag: 'pin' | 'lock'; on: boolean } | { move: Category }

/** A moderator's pin, lock or move of a topic. */
export function useModerateTopic(topic: number) {
  const invalidate = useInvalidateForum()
  return useMutation({
    mutationFn: (action: ModeratorAction): Promise<unknown> => ('move' in action ? moveTopic(topic, action.move) : setTopicFlag(topic, action.flag, action.on)),
    onSuccess: () => invalidate(),
  })
}
