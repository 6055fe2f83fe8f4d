import { Global, Module } from '@nestjs/common';
import { CourseProgressWrites } from '../enrollments/course-progress-writes';
import { ProgressModule } from './progress.module';
import { ProgressService } from './progress.service';

/** ProgressService as the CourseProgressWrites enrollments asks for (declared in modules/enrollments): global, imported once by the root. */
@Global()
@Module({
  imports: [ProgressModule],
  providers: [{ provide: CourseProgressWrites, inject: [ProgressService], useFactory: (progress: ProgressService): CourseProgressWrites => progress }],
  exports: [CourseProgressWrites],
})
export class CourseProgressWritesModule {}
