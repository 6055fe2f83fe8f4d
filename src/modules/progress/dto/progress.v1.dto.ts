import { Type } from 'class-transformer';
import { Allow, ValidateNested } from 'class-validator';
import { V1DateTime, V1Enum, V1Int, V1Obj, V1Str } from '../../../core/http/v1-rules';

const STATUS = ['PASSED', 'FAILED'] as const;
const INT = { nullable: true, min: 0, max: 2147483647 };

/** LessonProgressRequest / PatchedLessonProgressRequest: both partial (the published text). */
export class LessonProgressDto {
  @V1DateTime({ nullable: true }) finished_at?: string | null;
  @V1DateTime({ nullable: true }) completed_at?: string | null;
  @V1Enum(STATUS, { nullable: true }) success_status?: 'PASSED' | 'FAILED' | null;
  @V1Int(INT) score?: number | null;
  @V1Int(INT) max_score?: number | null;
  @V1Str({ nullable: true, max: 65535 }) custom_data?: string | null;
  @V1Enum(STATUS, { nullable: true }) validation_status?: 'PASSED' | 'FAILED' | null;
  /** JSON; ignored when the lesson needs no validation */
  @Allow() validation_data?: unknown;
}

/** ProgressTokenRequest: `success_status` is not nullable in the published schema. */
export class ProgressTokenDto {
  @V1DateTime({ nullable: true }) completed_at?: string | null;
  @V1Enum(STATUS) success_status?: 'PASSED' | 'FAILED';
  @V1Int(INT) score?: number | null;
  @V1Int(INT) max_score?: number | null;
}

/** CourseProgressRequest. */
export class CourseProgressDto {
  @V1DateTime({ nullable: true }) completed_at?: string | null;
  @V1Int(INT) score?: number | null;
  @V1Int(INT) max_score?: number | null;
  @V1Str({ max: 20 }) credits_earned?: string;
  @V1Str({ max: 40 }) credit_unit_plural?: string;
  @V1Enum(STATUS, { nullable: true }) success_status?: 'PASSED' | 'FAILED' | null;
}

/** UserPublishedCourseProgressRequest: `course_progress` required on PUT (checked by the controller). */
export class UserCourseProgressDto {
  @V1Str({ min: 1 }) published_course_id?: string;
  @V1Obj() @ValidateNested() @Type(() => CourseProgressDto) course_progress?: CourseProgressDto;
}

/** UserLessonProgressRequest: `lesson_progress` required on PUT. */
export class UserLessonProgressDto {
  @V1Obj() @ValidateNested() @Type(() => LessonProgressDto) lesson_progress?: LessonProgressDto;
}
