import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { Tabs } from '@/components/Tabs'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { CALENDAR_URL, EVENTS_PAGE_SIZE, type EventsWhen, useEventActions, useEventPermissions, useEvents } from './api'
import { EventCard } from './EventCard'
import { EventForm } from './EventForm'
import './events.css'

/** /events: upcoming and past community events, the calendar feed, and a new-event form for organizers. */
export default function EventsScreen() {
  const { t } = useTranslation('events')
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  const perms = useEventPermissions(Boolean(user))
  const [creating, setCreating] = useState(false)
  const canCreate = Boolean(user && perms.data?.can_create)
  return (
    <div className="stack events-page">
      <PageHeader
        title={t('title')}
        lead={t('lead')}
        actions={
          <>
            <a className="btn btn-outline btn-md" href={CALENDAR_URL} download="dforge-events.ics">
              {t('subscribe')}
            </a>
            {canCreate && !creating && <Button onClick={() => setCreating(true)}>{t('new')}</Button>}
          </>
        }
      />
      {user && perms.data && !perms.data.can_create && <OrganizerHint address={user.walletAddress ?? ''} />}
      {creating && <NewEvent onClose={() => setCreating(false)} />}
      <EventLists />
    </div>
  )
}

/**
 * Events are created by holders of the event_organizer role, which
 * governance grants; a signed-in user without it (an admin too) is told so,
 * with the role proposal prefilled for their own account.
 */
function OrganizerHint({ address }: { address: string }) {
  const { t } = useTranslation('events')
  const q = new URLSearchParams({ type: 'role', role: 'event_organizer', action: 'grant', account: address })
  return (
    <p className="muted event-organizer-hint">
      {t('organizer.hint')} <PreloadLink to={`/governance/new?${q}`}>{t('organizer.propose')}</PreloadLink>
    </p>
  )
}

function NewEvent({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('events')
  const { create } = useEventActions()
  return (
    <section className="card event-new" aria-labelledby="event-new-title">
      <h2 id="event-new-title">{t('form.newTitle')}</h2>
      <EventForm
        pending={create.isPending}
        onCancel={onClose}
        onSubmit={async (input) => {
          const e = await create.mutateAsync(input)
          window.location.assign(`/events/${e.id}`)
          return e
        }}
      />
    </section>
  )
}

function EventLists() {
  const { t } = useTranslation('events')
  const [whenParam, setWhen] = useUrlParam('when', 'upcoming')
  const when: EventsWhen = whenParam === 'past' ? 'past' : 'upcoming'
  const [page, setPage] = useState(1)
  const query = useEvents(when, page)
  return (
    <Tabs
      label={t('tabs.label')}
      tabs={[
        { id: 'upcoming', label: t('tabs.upcoming') },
        { id: 'past', label: t('tabs.past') },
      ]}
      selected={when}
      onSelect={(w) => {
        setWhen(w)
        setPage(1)
      }}
    >
      <Paged query={query} page={page} onPage={setPage} limit={EVENTS_PAGE_SIZE} label={t(`tabs.${when}`)} empty={t(`empty.${when}`)}>
        {(items) => (
          <ul className="events-list">
            {items.map((e) => (
              <li key={e.id}>
                <EventCard event={e} />
              </li>
            ))}
          </ul>
        )}
      </Paged>
    </Tabs>
  )
}
