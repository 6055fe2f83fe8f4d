import { Module } from '@nestjs/common';
import { MailProcessor } from './mail.processor';
import { Mailer } from './mailer';
import { PasswordResetMailsModule } from './password-reset-mails';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasswordResetMail } from './password-reset-mail.entity';

/** The mail queue consumer (password-reset mail) and its sweeper. Imported by the worker module only. */
@Module({
  imports: [TypeOrmModule.forFeature([PasswordResetMail]), PasswordResetMailsModule],
  providers: [Mailer, MailProcessor],
  exports: [Mailer],
})
export class MailModule {}
