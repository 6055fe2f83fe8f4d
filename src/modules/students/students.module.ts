import { StudentsProvisioning } from './students.provisioning';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { PasswordResetMailsModule } from '../mail/password-reset-mails';
import { Student } from './student.entity';
import { StudentsBatchService } from './students.batch.service';
import { StudentsService } from './students.service';
import { StudentsV2Controller } from './students.v2.controller';
import { UserEnrollmentsV1Service } from './user-enrollments.v1.service';
import { UserListsV1Controller } from './users-lists.v1.controller';
import { UsersV1Controller } from './users.v1.controller';
import { UsersV1Service } from './users.v1.service';

/** /v2 students; /v1 users build on the same entity and service. */
@Module({
  imports: [TypeOrmModule.forFeature([Student]), DomainsModule, PasswordResetMailsModule],
  controllers: [StudentsV2Controller, UsersV1Controller, UserListsV1Controller],
  providers: [StudentsService, StudentsBatchService, UsersV1Service, UserEnrollmentsV1Service, StudentsProvisioning],
  exports: [StudentsService, StudentsProvisioning],
})
export class StudentsModule {}
