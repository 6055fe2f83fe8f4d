import { Module } from '@nestjs/common';
import { LessonProgressV1Controller, ProgressTokensV1Controller } from './progress.v1.controller';
import { LessonProgressV2Controller } from './lesson-progress.v2.controller';
import { ProgressReads } from './progress-reads';
import { ProgressService } from './progress.service';
import { UserProgressV1Controller } from './user-progress.v1.controller';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CourseProgress } from './course-progress.entity';
import { CourseProgressCycle } from './course-progress-cycle.entity';
import { LessonProgress } from './lesson-progress.entity';

/**
 * Learners' progress: course_progress and lesson_progress (owned here), completion and what it
 * issues through the owners' write functions (enrollments' completion dates, certificates, path
 * completion). docs/decisions/progress.md.
 */
@Module({
  imports: [TypeOrmModule.forFeature([CourseProgress, CourseProgressCycle, LessonProgress])],
  controllers: [LessonProgressV1Controller, ProgressTokensV1Controller, UserProgressV1Controller, LessonProgressV2Controller],
  providers: [ProgressService, ProgressReads],
  exports: [ProgressService],
})
export class ProgressModule {}
