import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `content_attempts` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: content-attempts.store.ts. */
@Entity('content_attempts')
export class ContentAttempt {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') lessonProgressId: string;
  @Column('uuid') userId: string;
  @Column('uuid') lessonId: string;
  @Column('uuid') webPackageId: string;
  @Column('integer') number: number;
  @Column('text') standard: string;
  @Column('uuid') registration: string;
  @Column('jsonb') cmi: unknown;
  @Column('text') state: string;
  @Column('bigint') totalTimeCs: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('text') item: string;
  @Column('boolean') completed: boolean;
  @Column('boolean') satisfied: boolean;
  @Column('text', { nullable: true }) success: string | null;
  @Column('integer', { nullable: true }) score: number | null;
}
