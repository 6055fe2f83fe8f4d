import { Processor } from '@nestjs/bullmq';
import { DataSource } from 'typeorm';
import { JobHandlers, QueueWorker, sweeper } from '../../core/queue/queue-worker';
import { QUEUES, ViltMailJob, ViltMailQueueJob } from '../../core/queue/queues';
import { Mailer, OutgoingMail } from '../mail/mailer';
import { sendOnce } from '../mail/sent-once';
import { buildInvitation, InvitationEvent } from './invitation';
import { CancelledSnapshot, TrainingMails, VILT_MAIL_SWEEP_SCHEDULER_ID } from './training-mails';
import { meetingTimes } from './meeting-times';

export type ViltMailResult = { sent: true; via: 'smtp' | 'outbox' } | { sent: false; reason: 'no-recipient' | 'already-sent' | 'no-session' };

/** What nodemailer adds as the text/calendar alternative (`icalEvent`); the Mailer passes the message's members through. */
type CalendarMail = OutgoingMail & { icalEvent: { method: string; filename: string; content: string } };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Consumer of the live-training mail queue (worker only): reads the record, the learner (organization
 * scoped, at send time: an anonymized learner gets nothing) and the session's meetings as they are
 * now, and sends the invitation or cancellation with its iCalendar part (text/calendar; method=...).
 * A record is sent once: marked done after the send, and a job of a done record sends nothing.
 */
@Processor(QUEUES.viltMail, { concurrency: 5 })
export class TrainingMailProcessor extends QueueWorker<ViltMailQueueJob>(QUEUES.viltMail, 'vilt mail', sweeper(VILT_MAIL_SWEEP_SCHEDULER_ID, 'requeue-vilt-mails')) {
  protected readonly jobs: JobHandlers<ViltMailQueueJob> = {
    'vilt-mail': (data) => sendOnce(this.mails, data.mailId, data.organizationId, () => this.send(data)),
    'requeue-vilt-mails': () => this.mails.requeuePending(),
  };

  constructor(private readonly ds: DataSource, private readonly mailer: Mailer, private readonly mails: TrainingMails) {
    super();
  }

  private async send(data: ViltMailJob): Promise<ViltMailResult> {
    const org = data.organizationId;
    const [rec] = await this.ds.query(
      `SELECT vm.method, vm.session_id, vm.cancelled, u.email, u.first_name, u.last_name, u.is_anonymized, s.display_name
         FROM vilt_session_mails vm
         JOIN users u ON u.id = vm.user_id AND u.organization_id = $2
         LEFT JOIN vilt_sessions s ON s.id = vm.session_id AND s.organization_id = $2
        WHERE vm.id = $1 AND vm.organization_id = $2`,
      [data.mailId, org],
    );
    if (!rec) return { sent: false, reason: 'no-session' };
    if (rec.is_anonymized || !rec.email) return { sent: false, reason: 'no-recipient' };
    // a cancellation of deleted meetings carries them; any other mail reads the session's meetings as they are now
    const snapshot = rec.cancelled as CancelledSnapshot | null;
    const events: (InvitationEvent & { post_registration_instructions: string })[] = snapshot
      ? snapshot.events.map((e) => ({ ...e, starts_at: new Date(e.starts_at), ends_at: new Date(e.ends_at) }))
      : await this.ds.query(
          `SELECT id, display_name, description, post_registration_instructions, starts_at, ends_at, timezone, location, event_link, instructor_email, instructor_name, sequence
             FROM vilt_session_events WHERE organization_id = $1 AND session_id = $2 ORDER BY starts_at, id`,
          [org, rec.session_id],
        );
    if (!events.length) return { sent: false, reason: 'no-session' };
    if (snapshot) rec.display_name = snapshot.title;
    const name = [rec.first_name, rec.last_name].filter((x: string) => x).join(' ');
    const ics = buildInvitation(rec.method, events, { email: rec.email, name });
    const sent = await this.mailer.send(this.message(rec.method, rec.email, rec.first_name, rec.display_name, events, ics) as CalendarMail);
    this.logger.log({ msg: 'live-training mail sent', mailId: data.mailId, method: rec.method, via: sent.via });
    return { sent: true, via: sent.via };
  }

  private message(method: 'REQUEST' | 'CANCEL', to: string, firstName: string, title: string, events: (InvitationEvent & { post_registration_instructions: string })[], ics: string): CalendarMail {
    const hello = firstName ? `Hello ${firstName},` : 'Hello,';
    const when = events.map((e) => `- ${e.display_name}: ${meetingTimes(new Date(e.starts_at), new Date(e.ends_at), e.timezone)}${e.location ? `, ${e.location}` : ''}${e.event_link ? `, ${e.event_link}` : ''}`);
    const lead = method === 'REQUEST' ? `You are registered for "${title}". The calendar invitation is attached.` : `Your registration for "${title}" was cancelled.`;
    const text = [hello, '', lead, '', ...when].join('\n');
    const html = `<p>${escapeHtml(hello)}</p><p>${escapeHtml(lead)}</p><ul>${when.map((w) => `<li>${escapeHtml(w.slice(2))}</li>`).join('')}</ul>${method === 'REQUEST' ? events[0].post_registration_instructions : ''}`;
    return {
      to,
      subject: method === 'REQUEST' ? `Invitation: ${title}` : `Cancelled: ${title}`,
      text,
      html,
      icalEvent: { method, filename: method === 'REQUEST' ? 'invite.ics' : 'cancel.ics', content: ics },
    };
  }
}
