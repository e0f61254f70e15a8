import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { deleteJSON, getJSON, postJSON, putJSON } from '@/lib/http'
import { getPage } from '@/lib/forge/api'

/** A direct message as the API sends it; body_html is the node's sanitized rendering of its Markdown. */
export type Message = Schema<'Message'>

/** One of the signed-in user's conversations. */
export type Conversation = Schema<'Conversation'>

export const CONVERSATIONS_PAGE = 20
export const MESSAGES_PAGE = 30
/** The most a message may hold, in characters (the server's messages.MaxBody). */
export const MAX_BODY = 10000

/** How often an open page asks for new messages: people wait for an answer here. */
const LIVE_MS = 5_000

const API = '/api/v1/messages'
const conversationPath = (id: number) => `${API}/conversations/${id}`

export const messageKeys = {
  all: ['messages'] as const,
  list: (page: number) => ['messages', 'conversations', page] as const,
  conversation: (id: number) => ['messages', 'conversation', id] as const,
  thread: (id: number, page: number) => ['messages', 'conversation', id, 'messages', page] as const,
  unread: ['messages', 'unread'] as const,
}

/** A page of conversations, the latest first, kept fresh while the page is open. */
export function useConversations(page: number) {
  return useQuery({
    queryKey: messageKeys.list(page),
    queryFn: () => getPage<Conversation>(`${API}/conversations`, {}, page, CONVERSATIONS_PAGE),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_MS * 3,
  })
}

/** One conversation: the other user, its unread count and whether they are blocked. */
export function useConversation(id: number) {
  return useQuery({
    queryKey: messageKeys.conversation(id),
    queryFn: () => getJSON<Conversation>(conversationPath(id)),
    refetchInterval: LIVE_MS,
  })
}

/** A page of a conversation's messages, the newest first; polled so an answer shows up by itself. */
export function useMessages(id: number, page: number) {
  return useQuery({
    queryKey: messageKeys.thread(id, page),
    queryFn: () => getPage<Message>(`${conversationPath(id)}/messages`, {}, page, MESSAGES_PAGE),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_MS,
  })
}

/** How many messages are unread, and in how many conversations. */
export function useUnreadMessages() {
  return useQuery({
    queryKey: messageKeys.unread,
    queryFn: () => getJSON<{ unread: number; conversations: number }>(`${API}/unread`),
    refetchInterval: LIVE_MS * 3,
  })
}

/** Sends a message to a user by username; it starts or continues the conversation with them. */
export function useSendMessage() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (m: { to: string; body: string }) => postJSON<Message>(API, m),
    onSuccess: () => client.invalidateQueries({ queryKey: messageKeys.all }),
  })
}

/** Marks a conversation read to its last message (its notification too). */
export function useMarkConversationRead() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => postJSON<void>(`${conversationPath(id)}/read`),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['messages', 'conversations'] })
      void client.invalidateQueries({ queryKey: messageKeys.unread })
      void client.invalidateQueries({ queryKey: ['notifications'] })
    },
  })
}

/** Blocks or unblocks a user (Gitea's PUT and DELETE /user/blocks/{username}). */
export function useBlockUser() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ login, block }: { login: string; block: boolean }) => {
      const path = `/api/v1/user/blocks/${encodeURIComponent(login)}`
      return block ? putJSON<void>(path, undefined) : deleteJSON(path)
    },
    onSettled: () => client.invalidateQueries({ queryKey: messageKeys.all }),
  })
}
