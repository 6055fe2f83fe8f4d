import { Processor } from '@nestjs/bullmq';
import { DataSource } from 'typeorm';
import { JobHandlers, QueueWorker, sweeper } from '../../core/queue/queue-worker';
import { QUEUES, ViltMailJob, ViltMailQueueJob } from '../../core/queue/queues';
import { Mailer, OutgoingMail } from '../mail/mailer';
import { sendOnce } from '../mail/sent-once';
import { buildInvitation, InvitationEvent } from './invitation';
import { CancelledSnapshot, MailMethod, MailReason, TrainingMails, VILT_MAIL_SWEEP_SCHEDULER_ID } from './training-mails';
import { meetingTimes } from './meeting-times';
import { scoped } from '../../core/database/scoped';
import type { ViltSessionMailRow } from './vilt-session-mails.store';

export type ViltMailResult = { sent: true; via: 'smtp' | 'outbox' } | { sent: false; reason: 'no-recipient' | 'already-sent' | 'no-session' | 'not-registered' };

/** A meeting as a mail shows it. */
type MailEvent = InvitationEvent & { post_registration_instructions: string };

/** The mail record with its learner, session and what the mail needs to know. */
type MailRecord = Pick<ViltSessionMailRow, 'method' | 'reason' | 'sequence' | 'session_id' | 'event_id' | 'cancelled'> & {
  email: string;
  first_name: string;
  last_name: string;
  is_anonymized: boolean;
  display_name: string | null;
  meetings: number;
  registered: boolean;
};

/** What nodemailer adds as the text/calendar alternative (`icalEvent`); the Mailer passes the message's members through. */
type CalendarMail = OutgoingMail & { icalEvent: { method: string; filename: string; content: string } };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Consumer of the live-training mail queue (worker only): reads the record, the learner (organization
 * scoped, at send time: an anonymized learner gets nothing) and the record's meeting as it is now
 * (a cancellation: as it was, from its snapshot), and sends one mail per meeting with its iCalendar
 * part (text/calendar; method=..., one UID, the SEQUENCE recorded with the mail).
 * A record is sent once: marked done after the send, and a job of a done record sends nothing.
 */
@Processor(QUEUES.viltMail, { concurrency: 5 })
export class TrainingMailProcessor extends QueueWorker<ViltMailQueueJob>(QUEUES.viltMail, 'vilt mail', sweeper(VILT_MAIL_SWEEP_SCHEDULER_ID, 'requeue-vilt-mails')) {
  protected readonly jobs: JobHandlers<ViltMailQueueJob> = {
    'vilt-mail': (data) => sendOnce(this.mails, data.mailId, data.organizationId, () => this.send(data)),
    'requeue-vilt-mails': () => this.mails.requeuePending(),
  };

  constructor(
    private readonly ds: DataSource,
    private readonly mailer: Mailer,
    private readonly mails: TrainingMails,
  ) {
    super();
  }

  private async send(data: ViltMailJob): Promise<ViltMailResult> {
    const org = data.organizationId;
    const [rec] = await scoped(this.ds, org).query<MailRecord[]>(
      `SELECT vm.method, vm.reason, vm.sequence, vm.session_id, vm.event_id, vm.cancelled, u.email, u.first_name, u.last_name, u.is_anonymized, s.display_name,
              (SELECT count(*)::int FROM vilt_session_events e WHERE e.organization_id = $org AND e.session_id = vm.session_id) AS meetings,
              EXISTS (SELECT 1 FROM vilt_session_registrations r WHERE r.organization_id = $org AND r.session_id = vm.session_id AND r.user_id = vm.user_id) AS registered
         FROM vilt_session_mails vm
         JOIN users u ON u.id = vm.user_id AND u.organization_id = $org
         LEFT JOIN vilt_sessions s ON s.id = vm.session_id AND s.organization_id = $org
        WHERE vm.id = $1 AND vm.organization_id = $org`,
      [data.mailId],
    );
    if (!rec) return { sent: false, reason: 'no-session' };
    if (rec.is_anonymized || !rec.email) return { sent: false, reason: 'no-recipient' };
    // an invitation or update for a learner whose registration was removed since: its cancellation follows
    if (rec.method === 'REQUEST' && !rec.registered) return { sent: false, reason: 'not-registered' };
    // a cancellation carries the meeting it cancels; an invitation or update reads its meeting as it is
    // now (a record of the earlier form, without event_id: every meeting of the session)
    const snapshot = rec.cancelled as CancelledSnapshot | null;
    const events: MailEvent[] = snapshot
      ? snapshot.events.map((e) => ({ ...e, starts_at: new Date(e.starts_at), ends_at: new Date(e.ends_at) }))
      : await scoped(this.ds, org).query<MailEvent[]>(
          `SELECT id, display_name, description, post_registration_instructions, starts_at, ends_at, timezone, location, event_link, instructor_email, instructor_name, sequence
             FROM vilt_session_events WHERE organization_id = $org AND session_id = $1 AND ($2::uuid IS NULL OR id = $2) ORDER BY starts_at, id`,
          [rec.session_id, rec.event_id],
        );
    if (!events.length) return { sent: false, reason: 'no-session' };
    const method = rec.method as MailMethod;
    const reason: MailReason = (rec.reason as MailReason | null) ?? (method === 'REQUEST' ? 'registered' : snapshot ? 'session-cancelled' : 'unregistered');
    const title: string = snapshot ? snapshot.title : (rec.display_name as string); // a session that is gone leaves a snapshot
    const name = [rec.first_name, rec.last_name].filter((x: string) => x).join(' ');
    let via: 'smtp' | 'outbox' = 'outbox';
    // one message per meeting: an iTIP message carries one UID (RFC 5546 section 3.2.2)
    for (const e of events) {
      // the SEQUENCE recorded with the mail (a record of the earlier form: the meeting's, above it for a cancellation)
      const sequence: number = rec.sequence ?? e.sequence + (method === 'CANCEL' && !snapshot ? 1 : 0);
      const ics = buildInvitation(method, { ...e, sequence }, { email: rec.email, name });
      via = (await this.mailer.send(message(reason, method, rec.email, rec.first_name, title, e, rec.meetings, ics))).via;
    }
    this.logger.log({ msg: 'live-training mail sent', mailId: data.mailId, method, reason, messages: events.length, via });
    return { sent: true, via };
  }
}

/**
 * The mail of one meeting, worded as what happened (`reason`): a registration (for a multi-session
 * event, one such mail per meeting), a meeting added to or changed in what the learner is
 * registered for, the registration removed, one meeting of a multi-session event cancelled (the
 * registration stands), the session cancelled.
 */
export function message(reason: MailReason, method: MailMethod, to: string, firstName: string, title: string, e: MailEvent, meetings: number, ics: string): CalendarMail {
  const hello = firstName ? `Hello ${firstName},` : 'Hello,';
  const when = `${e.display_name}: ${meetingTimes(new Date(e.starts_at), new Date(e.ends_at), e.timezone)}${e.location ? `, ${e.location}` : ''}${e.event_link ? `, ${e.event_link}` : ''}`;
  const meeting = e.display_name && e.display_name !== title ? ` (${e.display_name})` : '';
  const [subject, lead] = ((): [string, string] => {
    switch (reason) {
      case 'registered':
        return meetings > 1
          ? [
              `Invitation: ${title}${meeting}`,
              `You are registered for "${title}", which has ${meetings} meetings. Each meeting comes in its own calendar invitation; this one is for the meeting below.`,
            ]
          : [`Invitation: ${title}${meeting}`, `You are registered for "${title}". The calendar invitation is attached.`];
      case 'added':
        return [`New meeting: ${title}${meeting}`, `A meeting was added to "${title}", which you are registered for. Its calendar invitation is attached.`];
      case 'rescheduled':
        return [`Updated: ${title}${meeting}`, `A meeting of "${title}", which you are registered for, has changed. The updated calendar invitation is attached.`];
      case 'unregistered':
        return [`Cancelled: ${title}${meeting}`, `Your registration for "${title}" was cancelled. The attached cancellation removes the meeting below from your calendar.`];
      case 'meeting-cancelled':
        return [
          `Meeting cancelled: ${e.display_name} (${title})`,
          `A meeting of "${title}" was cancelled. Your registration for "${title}" stands, and its other meetings are unchanged. The attached cancellation removes this meeting from your calendar.`,
        ];
      case 'session-cancelled':
        return [`Cancelled: ${title}`, `"${title}" was cancelled. The attached cancellation removes it from your calendar.`];
    }
  })();
  const text = [hello, '', lead, '', `- ${when}`].join('\n');
  const html = `<p>${escapeHtml(hello)}</p><p>${escapeHtml(lead)}</p><ul><li>${escapeHtml(when)}</li></ul>${method === 'REQUEST' ? e.post_registration_instructions : ''}`;
  return { to, subject, text, html, icalEvent: { method, filename: method === 'REQUEST' ? 'invite.ics' : 'cancel.ics', content: ics } };
}
