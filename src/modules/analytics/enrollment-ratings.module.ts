import { Global, Module } from '@nestjs/common';
import { EnrollmentRatingWrites } from '../enrollments/enrollment-ratings';
import { removeEnrollmentRating, upsertEnrollmentRating } from './rating-writes';

/** The course-rating writes enrollments asks for (`EnrollmentRatingWrites`, declared in modules/enrollments): global, imported once by the root. */
@Global()
@Module({
  providers: [{ provide: EnrollmentRatingWrites, useValue: { upsertEnrollmentRating, removeEnrollmentRating } satisfies EnrollmentRatingWrites }],
  exports: [EnrollmentRatingWrites],
})
export class EnrollmentRatingsModule {}
