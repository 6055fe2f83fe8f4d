/** The durable records of a kind of mail (password_reset_mails, vilt_session_mails): whether one was sent (or skipped), and marking it so. */
export interface MailRecords {
  isDone(id: string, organizationId: string): Promise<boolean>;
  markDone(id: string, organizationId: string): Promise<void>;
}

/**
 * A recorded mail sent at most once, however often its job runs: nothing when its record is done
 * already, else the send (or the skip) and then the record marked done. A job without a record id
 * (queued before the records existed) just sends.
 */
export async function sendOnce<R>(records: MailRecords, id: string | undefined, organizationId: string, send: () => Promise<R>): Promise<R | { sent: false; reason: 'already-sent' }> {
  if (id && (await records.isDone(id, organizationId))) return { sent: false, reason: 'already-sent' };
  const result = await send();
  if (id) await records.markDone(id, organizationId);
  return result;
}
