/** Queue names and job payloads. Jobs carry ids and the organization id, never whole objects. */
export const QUEUES = {
  maintenance: 'maintenance',
  mail: 'mail',
  contentFiles: 'content-files',
  webhookRelay: 'webhook-relay',
  webhookDelivery: 'webhook-delivery',
  viltMail: 'vilt-mail',
  reenrollment: 'reenrollment',
  dataExports: 'data-exports',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface CleanupJob {
  kind: 'expired-auth';
}

export interface PasswordResetMailJob {
  kind: 'password-reset';
  organizationId: string;
  studentId: string;
  domainName: string;
  /** the signed reset link; the mail is built by the worker */
  resetUrl: string;
  /**
   * the durable record (password_reset_mails), marked done by the worker; the job id is
   * `password-reset-${requestId}`. Absent in jobs queued before the record existed.
   */
  requestId?: string;
}

/** The mail sweeper (a job scheduler): queues the mails whose job never reached Redis. */
export interface MailRequeueJob {
  kind: 'requeue-unsent';
}

export type MailJob = PasswordResetMailJob | MailRequeueJob;

export interface WebhookRelayJob {
  kind: 'relay';
}

/** One delivery (the job id is the delivery id, so a re-enqueue is idempotent). */
export interface WebhookDeliveryJob {
  deliveryId: string;
}

/** Content-file imports (worker: download, inspect, store), queue QUEUES.contentFiles. */
export interface AssetImportJob {
  kind: 'asset-import';
  organizationId: string;
  assetId: string;
}

export interface WebPackageImportJob {
  kind: 'web-package-import';
  organizationId: string;
  webPackageId: string;
}

/** The import sweeper (a job scheduler): queues the imports whose job never reached Redis. */
export interface ImportRequeueJob {
  kind: 'requeue-pending';
}

export type ContentFileJob = AssetImportJob | WebPackageImportJob | ImportRequeueJob;

/** A live-training invitation or cancellation (modules/training): the record vilt_session_mails.id; job id `vilt-mail-<mailId>`. */
export interface ViltMailJob {
  kind: 'vilt-mail';
  organizationId: string;
  mailId: string;
}

/** The live-training mail sweeper (a job scheduler): queues the recorded mails whose job never reached Redis. */
export interface ViltMailRequeueJob {
  kind: 'requeue-vilt-mails';
}

export type ViltMailQueueJob = ViltMailJob | ViltMailRequeueJob;

/** The re-enrollment tick (a job scheduler, modules/reenrollment): runs the rules whose next_run_at has come. */
export interface ReenrollmentTickJob {
  kind: 'run-due-rules';
}
/** An export to run (modules/data-out), job id `export-<exportId>`; the row data_exports is the state. */
export interface DataExportRunJob {
  kind: 'export';
  organizationId: string;
  exportId: string;
}

/** The export sweeper (a job scheduler): deletes expired export files, re-queues exports whose job never reached Redis. */
export interface DataExportSweepJob {
  kind: 'sweep-exports';
}

export type DataExportJob = DataExportRunJob | DataExportSweepJob;
