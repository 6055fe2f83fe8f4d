import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `lesson_progress` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: lesson-progress.store.ts. */
@Entity('lesson_progress')
export class LessonProgress {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') courseProgressId: string;
  @Column('uuid') userId: string;
  @Column('uuid') lessonId: string;
  @Column('uuid') progressToken: string;
  @Column('integer') viewCount: number;
  @Column('timestamptz', { nullable: true }) lastViewedOn: Date | null;
  @Column('timestamptz', { nullable: true }) finishedAt: Date | null;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
  @Column('text', { nullable: true }) successStatus: string | null;
  @Column('integer', { nullable: true }) score: number | null;
  @Column('integer', { nullable: true }) maxScore: number | null;
  @Column('text', { nullable: true }) customData: string | null;
  @Column('text', { nullable: true }) validationStatus: string | null;
  @Column('jsonb', { nullable: true }) validationData: unknown | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
