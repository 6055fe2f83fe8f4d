import { contentItemsOf, type Lesson } from './lesson.entity';

/** What the presenters read of a lesson: an entity, or a row of the /v2 reads mapped by hand (contentItems: the detail's). */
export type LessonFields = Pick<Lesson, 'id' | 'createdAt' | 'updatedAt' | 'courseId' | 'title' | 'type' | 'order' | 'descriptionHtml' | 'contentHtml' | 'quizId' | 'externalId'> & {
  contentItems: unknown;
  /** created_at / updated_at as toISOString() gives them, when the row carries them so (LessonRow) */
  createdIso?: string;
  updatedIso?: string;
};

/** Whether the lesson holds a RATING item (its answer then needs the course's rating scale). */
export const hasRatingItem = (l: LessonFields) => l.type === 'MODULAR' && contentItemsOf(l).some((c) => c.type === 'RATING');

/** A lesson a batch wrote, with its course's rating scale when it has a RATING item: the controller presents it (presentLessonDetail). */
export interface WrittenLesson {
  lesson: LessonFields;
  ratingScale: number | undefined;
}
