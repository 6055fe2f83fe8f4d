import { Global, Module } from '@nestjs/common';
import { PurchaseGrantWrites } from './modules/commerce/purchase-grants';
import { joinDomainFor } from './modules/domain-users/membership-writes';
import { insertEnrollment, setProgramEnrollmentsActive } from './modules/enrollments/program-enrollments';
import { enrollInCoursesFor, setEnrollmentsActive } from './modules/enrollments/purchase-enrollments';
import { ProgressModule } from './modules/progress/progress.module';
import { ProgressService } from './modules/progress/progress.service';

/**
 * What a purchase grants, composed here (the root) so commerce imports none of the modules whose
 * tables its fulfilment writes: each write is the table owner's function.
 */
@Global()
@Module({
  imports: [ProgressModule],
  providers: [
    {
      provide: PurchaseGrantWrites,
      inject: [ProgressService],
      useFactory: (progress: ProgressService): PurchaseGrantWrites => ({
        joinDomain: joinDomainFor,
        enrollInCourses: (m, o) => enrollInCoursesFor(m, progress, o),
        insertProgramEnrollment: insertEnrollment,
        setEnrollmentsActive,
        setProgramEnrollmentsActive,
      }),
    },
  ],
  exports: [PurchaseGrantWrites],
})
export class PurchaseGrantsModule {}
