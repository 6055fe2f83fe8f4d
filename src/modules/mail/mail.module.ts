import { Module } from '@nestjs/common';
import { MailProcessor } from './mail.processor';
import { Mailer } from './mailer';

/** The mail queue consumer (password-reset mail). Imported by the worker module only. */
@Module({
  providers: [Mailer, MailProcessor],
  exports: [Mailer],
})
export class MailModule {}
