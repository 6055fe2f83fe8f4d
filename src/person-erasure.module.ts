import { Global, Module } from '@nestjs/common';
import { eraseRatingFeedback } from './modules/analytics/rating-writes';
import { erasePersonFromDomains } from './modules/domain-users/membership-writes';
import { eraseProgressPersonalData } from './modules/progress/erasure';
import { PersonErasureSteps } from './modules/students/person-erasure';

/**
 * A person's erasure outside `users`, composed here (the root) so students imports none of the
 * modules whose tables it erases from: each step is the table owner's function, in this order.
 */
@Global()
@Module({
  providers: [{ provide: PersonErasureSteps, useValue: { steps: [eraseRatingFeedback, erasePersonFromDomains, eraseProgressPersonalData] } satisfies PersonErasureSteps }],
  exports: [PersonErasureSteps],
})
export class PersonErasureModule {}
