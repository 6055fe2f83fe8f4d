import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { TrainingMailProcessor } from './training-mail.processor';
import { TrainingMails } from './training-mails';

/** The worker side of live training: the invitation mail consumer and its sweeper (worker process only). */
@Module({
  imports: [MailModule],
  providers: [TrainingMails, TrainingMailProcessor],
})
export class TrainingWorkerModule {}
