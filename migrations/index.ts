import { Foundation1763700000000 } from './1763700000000-foundation';
import { LearningModel1763700001000 } from './1763700001000-learning-model';

/** Every migration, in order. Add new ones at the end. */
export const MIGRATIONS = [Foundation1763700000000, LearningModel1763700001000];
