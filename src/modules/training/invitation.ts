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

const stripHtml = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The iCalendar object of an invitation or update (METHOD:REQUEST) or cancellation (METHOD:CANCEL)
 * of ONE meeting, built with ical-generator: an iTIP message carries the components of one UID
 * (RFC 5546 section 3.2.2), so a multi-session event is one message per meeting (docs/decisions/
 * training.md, "iTIP"). The VEVENT's UID is stable (invitationUid), its SEQUENCE the one recorded with
 * the mail, its times written in the meeting's time zone (DTSTART;TZID=...) with that zone's
 * VTIMEZONE (@touch4it/ical-timezones); a zone that library does not know is written in UTC.
 * The calendar itself has no zone (only the VTIMEZONE generator), so DTSTAMP is written in UTC with
 * `Z` as RFC 5545 section 3.8.7.2 requires (ical-generator writes it in the calendar's zone otherwise).
 */
export function buildInvitation(method: 'REQUEST' | 'CANCEL', e: InvitationEvent, attendee: { email: string; name: string }, now: Date = new Date()): string {
  const cal = ical({
    method: method === 'REQUEST' ? ICalCalendarMethod.REQUEST : ICalCalendarMethod.CANCEL,
    prodId: { company: 'course-platform', product: 'live-training', language: 'EN' },
    timezone: { name: null, generator: getVtimezoneComponent },
  });
  const zone = e.timezone !== 'UTC' && getVtimezoneComponent(e.timezone) ? e.timezone : null;
  const at = (d: Date) => DateTime.fromJSDate(new Date(d), { zone: zone ?? 'utc' });
  cal.createEvent({
    id: invitationUid(e.id),
    sequence: e.sequence,
    stamp: DateTime.fromJSDate(now, { zone: 'utc' }),
    start: at(e.starts_at),
    end: at(e.ends_at),
    timezone: zone,
    summary: e.display_name,
    description: stripHtml(e.description) || null,
    location: e.location,
    url: e.event_link,
    status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: e.instructor_name || e.instructor_email, email: e.instructor_email },
    attendees: [{ email: attendee.email, name: attendee.name || undefined, rsvp: true }],
  });
  return cal.toString();
}
