import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Schema, Sent } from '@/lib/apiSchema'
import { getPage } from '@/lib/forge/api'
import { deleteJSON, getJSON, patchJSON, postJSON, putJSON, retryUnlessNotFound } from '@/lib/http'

/** A community event as /api/v1/events sends it. The document types my_rsvp as any string: the server sends an RSVPStatus or "", and leaves it out for anonymous callers. */
export type CommunityEvent = Omit<Schema<'Event'>, 'my_rsvp'> & { my_rsvp?: RSVPStatus | '' }

export type RSVPStatus = 'going' | 'maybe' | 'no'
export const RSVP_STATUSES: readonly RSVPStatus[] = ['going', 'maybe', 'no']

export type EventsWhen = 'upcoming' | 'past'

export type EventRSVP = Schema<'EventRSVP'>

/** What an event form sends, every field (times in RFC 3339), so none is null (which on an edit means "leave it"). */
export type EventInput = Sent<Schema<'EventBody'>>

export const EVENTS_PAGE_SIZE = 10

/** The calendar of all recent and upcoming events, for calendar apps. */
export const CALENDAR_URL = '/api/v1/events.ics'
export const eventCalendarUrl = (id: number) => `/api/v1/events/${id}.ics`

const keys = {
  all: ['events'] as const,
  list: (when: EventsWhen, page: number) => ['events', 'list', when, page] as const,
  one: (id: string) => ['events', 'one', id] as const,
  rsvps: (id: string, page: number) => ['events', 'rsvps', id, page] as const,
  permissions: ['events', 'permissions'] as const,
}

export function useEvents(when: EventsWhen, page: number) {
  return useQuery({
    queryKey: keys.list(when, page),
    queryFn: () => getPage<CommunityEvent>('/api/v1/events', { when }, page, EVENTS_PAGE_SIZE),
    placeholderData: keepPreviousData,
  })
}

export function useEvent(id: string) {
  return useQuery({
    queryKey: keys.one(id),
    queryFn: () => getJSON<CommunityEvent>(`/api/v1/events/${encodeURIComponent(id)}`),
    retry: retryUnlessNotFound,
  })
}

export function useEventRSVPs(id: string, page: number) {
  return useQuery({
    queryKey: keys.rsvps(id, page),
    queryFn: () => getPage<EventRSVP>(`/api/v1/events/${encodeURIComponent(id)}/rsvps`, {}, page, EVENTS_PAGE_SIZE),
    placeholderData: keepPreviousData,
  })
}

/** Whether the viewer may create events (organizers) and answer them (anyone signed in). */
export function useEventPermissions(signedIn: boolean) {
  return useQuery({
    queryKey: [...keys.permissions, signedIn],
    queryFn: () => getJSON<{ can_create: boolean; can_rsvp: boolean }>('/api/v1/events/permissions'),
  })
}

/** Create, edit, cancel and answer; each refreshes the lists. */
export function useEventActions() {
  const qc = useQueryClient()
  const done = (e?: CommunityEvent) => {
    if (e) qc.setQueryData(keys.one(String(e.id)), e)
    void qc.invalidateQueries({ queryKey: keys.all })
  }
  return {
    create: useMutation({ mutationFn: (input: EventInput) => postJSON<CommunityEvent>('/api/v1/events', input), onSuccess: done }),
    edit: useMutation({
      mutationFn: ({ id, input }: { id: number; input: Partial<EventInput> }) => patchJSON<CommunityEvent>(`/api/v1/events/${id}`, input),
      onSuccess: done,
    }),
    cancel: useMutation({ mutationFn: (id: number) => deleteJSON(`/api/v1/events/${id}`), onSuccess: () => done() }),
    rsvp: useMutation({
      mutationFn: ({ id, status }: { id: number; status: RSVPStatus }) => putJSON<CommunityEvent>(`/api/v1/events/${id}/rsvp`, { status }),
      onSuccess: done,
    }),
  }
}
