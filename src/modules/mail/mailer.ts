import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer, { Transporter } from 'nodemailer';
import { AppConfig } from '../../core/config/config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends mail through SMTP (nodemailer, SMTP_URL) or, without SMTP_URL, writes each message as an
 * .eml file into MAIL_OUTBOX_DIR (written under a temporary name, then renamed, so a reader never
 * sees half a message).
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private smtp: Transporter | null = null;
  private readonly builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(private readonly config: AppConfig) {
    if (config.SMTP_URL) this.smtp = nodemailer.createTransport(config.SMTP_URL);
  }

  async send(mail: OutgoingMail): Promise<{ via: 'smtp' | 'outbox'; id: string; file?: string }> {
    const message = { from: this.config.MAIL_FROM, ...mail };
    if (this.smtp) {
      const info = await this.smtp.sendMail(message);
      return { via: 'smtp', id: info.messageId };
    }
    const info = (await this.builder.sendMail(message)) as unknown as { messageId: string; message: Buffer };
    const dir = resolve(this.config.MAIL_OUTBOX_DIR);
    await mkdir(dir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(6).toString('hex')}.eml`;
    const tmp = join(dir, `.${name}.tmp`);
    await writeFile(tmp, info.message, { mode: 0o600 });
    await rename(tmp, join(dir, name));
    return { via: 'outbox', id: info.messageId, file: join(dir, name) };
  }

  onModuleDestroy() {
    this.smtp?.close();
  }
}
