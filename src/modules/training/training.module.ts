import { Module } from '@nestjs/common';
import { ProgressModule } from '../progress/progress.module';
import { InstructorsService } from './instructors.service';
import { MultiSessionsService } from './multi-sessions.service';
import { RegistrationsService } from './registrations.service';
import { SessionsService } from './sessions.service';
import { TrainingMails } from './training-mails';
import { IltInstructorsV1Controller, IltMultiSessionEventsV1Controller, IltSessionsV1Controller, ViltSessionEventsV1Controller, ViltSessionRegistrationsV1Controller } from './training.v1.controller';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IltInstructor } from './ilt-instructor.entity';
import { ViltSessionEvent } from './vilt-session-event.entity';
import { ViltSessionMail } from './vilt-session-mail.entity';
import { ViltSessionRegistration } from './vilt-session-registration.entity';
import { ViltSession } from './vilt-session.entity';

/**
 * Live training (issue 13, CONVENTIONS §13; docs/decisions/training.md): ILT instructors,
 * multi-session events and sessions, VILT session events and registrations. Owns ilt_instructors,
 * vilt_sessions, vilt_session_events, vilt_session_registrations and vilt_session_mails.
 */
@Module({
  imports: [TypeOrmModule.forFeature([IltInstructor, ViltSessionEvent, ViltSessionMail, ViltSessionRegistration, ViltSession]), ProgressModule],
  controllers: [IltInstructorsV1Controller, IltMultiSessionEventsV1Controller, IltSessionsV1Controller, ViltSessionEventsV1Controller, ViltSessionRegistrationsV1Controller],
  providers: [InstructorsService, MultiSessionsService, SessionsService, RegistrationsService, TrainingMails],
  exports: [TrainingMails],
})
export class TrainingModule {}
