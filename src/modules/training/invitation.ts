import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { encodeId } from '../../core/ids/ids';

export interface InvitationEvent {
  id: string;
  display_name: string;
  description: string;
  starts_at: Date;
  ends_at: Date;
  timezone: string;
  location: string | null;
  event_link: string | null;
  instructor_email: string;
  instructor_name: string;
  sequence: number;
}

/** The stable UID of a scheduled meeting's invitations: the same on the invitation, its updates and its cancellation. */
export const invitationUid = (eventId: string) => `${encodeId('viltSessionEvent', eventId)}@live-training`;

const stripHtml = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * The iCalendar object of an invitation (METHOD:REQUEST) or cancellation (METHOD:CANCEL), built
 * with ical-generator: one VEVENT per meeting of the session, its UID stable (invitationUid), its
 * SEQUENCE the meeting's, its times written in the session's time zone with that zone's VTIMEZONE
 * (@touch4it/ical-timezones); a zone that library does not know is written in UTC.
 */
export function buildInvitation(method: 'REQUEST' | 'CANCEL', events: InvitationEvent[], attendee: { email: string; name: string }): string {
  const cal = ical({ method: method === 'REQUEST' ? ICalCalendarMethod.REQUEST : ICalCalendarMethod.CANCEL, prodId: { company: 'course-platform', product: 'live-training', language: 'EN' } });
  // the calendar's zone (one VTIMEZONE): the first meeting's, when the library knows it; a meeting in another zone is written in UTC
  const zone = events.length && events[0].timezone !== 'UTC' && getVtimezoneComponent(events[0].timezone) ? events[0].timezone : null;
  if (zone) cal.timezone({ name: zone, generator: getVtimezoneComponent });
  for (const e of events) {
    const inZone = zone !== null && e.timezone === zone;
    const at = (d: Date) => DateTime.fromJSDate(new Date(d), { zone: inZone ? zone! : 'utc' });
    cal.createEvent({
      id: invitationUid(e.id),
      sequence: e.sequence,
      stamp: DateTime.utc(),
      start: at(e.starts_at),
      end: at(e.ends_at),
      timezone: inZone ? zone : null,
      summary: e.display_name,
      description: stripHtml(e.description) || null,
      location: e.location,
      url: e.event_link,
      status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      organizer: { name: e.instructor_name || e.instructor_email, email: e.instructor_email },
      attendees: [{ email: attendee.email, name: attendee.name || undefined, rsvp: true }],
    });
  }
  return cal.toString();
}
