import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Dialog } from '@/components/Dialog'
import { Paged } from '@/components/Lists'
import { Markdown } from '@/components/Markdown'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundCard } from '@/components/NotFoundCard'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { errorText } from '@/lib/http'
import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type CommunityEvent, EVENTS_PAGE_SIZE, eventCalendarUrl, RSVP_STATUSES, useEvent, useEventActions, useEventPermissions, useEventRSVPs } from './api'
import { EventBadge, EventWhere } from './EventCard'
import { EventForm } from './EventForm'
import { formatSpan } from './time'
import './events.css'

/** /events/:id: one event with its description, answers, calendar file, and the organizers' edit and cancel. */
export default function EventScreen() {
  const { t } = useTranslation('events')
  const id = useRoute().params.id ?? ''
  const query = useEvent(id)
  const missing = query.error instanceof NotFoundError
  useDocumentTitle(query.data?.title ?? t(missing ? 'notFound.title' : 'title'))
  if (missing) {
    return (
      <NotFoundCard
        title={t('notFound.title')}
        description={t('notFound.description', { id })}
        links={[
          { to: '/events', label: t('notFound.list') },
          { to: '/search', label: t('notFound.search', { ns: 'common' }) },
        ]}
      />
    )
  }
  return (
    <div className="stack events-page">
      <PreloadLink to="/events">{t('back')}</PreloadLink>
      <QueryState query={query}>{(e) => <EventDetail event={e} />}</QueryState>
    </div>
  )
}

function EventDetail({ event }: { event: CommunityEvent }) {
  const { t, i18n } = useTranslation('events')
  const user = useSignedInUser()
  const perms = useEventPermissions(Boolean(user))
  const [editing, setEditing] = useState(false)
  const canManage = Boolean(user && perms.data?.can_create && !event.cancelled)
  const { edit } = useEventActions()
  return (
    <>
      <PageHeader
        title={event.title}
        lead={
          <>
            <time dateTime={event.starts_at}>{formatSpan(event.starts_at, event.ends_at, event.timezone, i18n.language)}</time> <span className="muted">({event.timezone})</span>{' '}
            <EventBadge event={event} />
          </>
        }
        actions={
          <a className="btn btn-outline btn-md" href={eventCalendarUrl(event.id)} download={`event-${event.id}.ics`}>
            {t('addToCalendar')}
          </a>
        }
      />
      {event.cancelled && (
        <p className="alert-error" role="status">
          {t('cancelledNote')}
        </p>
      )}
      <EventWhere event={event} />
      <p className="muted">{t('organizedBy', { login: event.organizer.login })}</p>
      {event.description_html ? <Markdown html={event.description_html} /> : <p className="muted">{t('noDescription')}</p>}
      <RSVP event={event} />
      {canManage && !editing && <Manage event={event} onEdit={() => setEditing(true)} />}
      {editing && (
        <section className="card event-new" aria-labelledby="event-edit-title">
          <h2 id="event-edit-title">{t('form.editTitle')}</h2>
          <EventForm
            event={event}
            pending={edit.isPending}
            onCancel={() => setEditing(false)}
            onSubmit={async (input) => {
              const e = await edit.mutateAsync({ id: event.id, input })
              setEditing(false)
              return e
            }}
          />
        </section>
      )}
      <Answers id={String(event.id)} />
    </>
  )
}

/** The viewer's answer: going, maybe or no; signed-out viewers are asked to sign in. */
function RSVP({ event }: { event: CommunityEvent }) {
  const { t } = useTranslation('events')
  const user = useSignedInUser()
  const { rsvp } = useEventActions()
  return (
    <section className="event-rsvp" aria-labelledby="event-rsvp-title">
      <h2 id="event-rsvp-title">{t('rsvp.title')}</h2>
      <p>{t('counts', { going: event.going, maybe: event.maybe })}</p>
      {event.cancelled ? (
        <p className="muted">{t('rsvp.closed')}</p>
      ) : !user ? (
        <p className="muted">{t('rsvp.signIn')}</p>
      ) : (
        <>
          <div className="event-rsvp-buttons" role="group" aria-labelledby="event-rsvp-title">
            {RSVP_STATUSES.map((s) => (
              <Button
                key={s}
                size="sm"
                variant={event.my_rsvp === s ? 'primary' : 'outline'}
                aria-pressed={event.my_rsvp === s}
                disabled={rsvp.isPending}
                onClick={() => rsvp.mutate({ id: event.id, status: s })}
              >
                {t(`rsvp.${s}`)}
              </Button>
            ))}
          </div>
          {event.my_rsvp && <p className="muted">{t('rsvp.yours', { answer: t(`rsvp.${event.my_rsvp}`) })}</p>}
          {rsvp.isError && (
            <p className="field-error" role="alert">
              {errorText(rsvp.error)}
            </p>
          )}
        </>
      )}
    </section>
  )
}

/** Edit and cancel, for organizers; cancelling asks first. */
function Manage({ event, onEdit }: { event: CommunityEvent; onEdit: () => void }) {
  const { t } = useTranslation('events')
  const { cancel } = useEventActions()
  const [confirming, setConfirming] = useState(false)
  return (
    <div className="event-manage">
      <Button variant="outline" onClick={onEdit}>
        {t('edit')}
      </Button>
      <Button variant="danger" onClick={() => setConfirming(true)}>
        {t('cancel.action')}
      </Button>
      {confirming && (
        <Dialog title={t('cancel.title')} description={t('cancel.description', { title: event.title })} closeLabel={t('cancel.keep')} onClose={() => setConfirming(false)}>
          {cancel.isError && (
            <p className="field-error" role="alert">
              {errorText(cancel.error)}
            </p>
          )}
          <div className="event-form-actions">
            <Button variant="danger" disabled={cancel.isPending} onClick={() => cancel.mutate(event.id, { onSuccess: () => setConfirming(false) })}>
              {t('cancel.confirm')}
            </Button>
            <Button variant="outline" onClick={() => setConfirming(false)}>
              {t('cancel.keep')}
            </Button>
          </div>
        </Dialog>
      )}
    </div>
  )
}

/** Who answered, latest first. */
function Answers({ id }: { id: string }) {
  const { t } = useTranslation('events')
  const [page, setPage] = useState(1)
  const query = useEventRSVPs(id, page)
  return (
    <section aria-labelledby="event-answers-title">
      <h2 id="event-answers-title">{t('answers.title')}</h2>
      <Paged query={query} page={page} onPage={setPage} limit={EVENTS_PAGE_SIZE} label={t('answers.title')} empty={t('answers.empty')}>
        {(items) => (
          <ul className="event-answers">
            {items.map((a) => (
              <li key={a.user.login}>
                <PreloadLink to={`/user/${encodeURIComponent(a.user.login)}`}>{a.user.login}</PreloadLink> <span className="muted">{t(`rsvp.${a.status}`)}</span>
              </li>
            ))}
          </ul>
        )}
      </Paged>
    </section>
  )
}
