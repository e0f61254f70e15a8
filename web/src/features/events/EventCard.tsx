import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { PreloadLink } from '@/components/PreloadLink'
import type { CommunityEvent } from './api'
import { dateBadge, formatSpan } from './time'

/** Where an event happens: its place, its online link, or both. */
export function EventWhere({ event }: { event: CommunityEvent }) {
  const { t } = useTranslation('events')
  return (
    <>
      {event.place && (
        <p className="event-where">
          <span className="muted">{t('place')}:</span> {event.place}
        </p>
      )}
      {event.online_url && (
        <p className="event-where">
          <span className="muted">{t('online')}:</span>{' '}
          <a href={event.online_url} rel="noopener noreferrer nofollow" target="_blank">
            {event.online_url}
          </a>
        </p>
      )}
    </>
  )
}

/** The state badge of an event: cancelled or past; nothing for an upcoming one. */
export function EventBadge({ event }: { event: CommunityEvent }) {
  const { t } = useTranslation('events')
  if (event.cancelled) return <span className="badge event-badge-cancelled">{t('cancelled')}</span>
  if (event.past) return <span className="badge">{t('ended')}</span>
  return null
}

/** An event in a list: its date, title, time in its zone, where, who organizes it and the answers so far. */
export function EventCard({ event }: { event: CommunityEvent }) {
  const { t, i18n } = useTranslation('events')
  const badge = dateBadge(event.starts_at, event.timezone, i18n.language)
  return (
    <Card as="article" className={`event-card${event.cancelled ? ' event-card-cancelled' : ''}`}>
      <div className="event-date" aria-hidden="true">
        <span className="event-date-month">{badge.month}</span>
        <span className="event-date-day">{badge.day}</span>
      </div>
      <div className="event-body">
        <h3 className="event-title">
          <PreloadLink to={`/events/${event.id}`}>{event.title}</PreloadLink> <EventBadge event={event} />
        </h3>
        <p className="event-when">
          <time dateTime={event.starts_at}>{formatSpan(event.starts_at, event.ends_at, event.timezone, i18n.language)}</time>{' '}
          <span className="muted">({event.timezone})</span>
        </p>
        <EventWhere event={event} />
        <p className="muted event-meta">
          {t('organizedBy', { login: event.organizer.login })} · {t('counts', { going: event.going, maybe: event.maybe })}
        </p>
      </div>
    </Card>
  )
}
