import { Foundation1763700000000 } from './1763700000000-foundation';
import { LearningModel1763700001000 } from './1763700001000-learning-model';
import { CourseRatingScale1763700003000 } from './1763700003000-course-rating-scale';

/** Every migration, in order. Add new ones at the end. */
export const MIGRATIONS = [Foundation1763700000000, LearningModel1763700001000, CourseRatingScale1763700003000];
