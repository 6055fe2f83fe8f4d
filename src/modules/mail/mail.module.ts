import { Module } from '@nestjs/common';
import { MailProcessor } from './mail.processor';
import { Mailer } from './mailer';
import { PasswordResetMailsModule } from './password-reset-mails';

/** The mail queue consumer (password-reset mail) and its sweeper. Imported by the worker module only. */
@Module({
  imports: [PasswordResetMailsModule],
  providers: [Mailer, MailProcessor],
  exports: [Mailer],
})
export class MailModule {}
