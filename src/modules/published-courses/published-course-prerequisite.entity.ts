import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `published_course_prerequisites` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('published_course_prerequisites')
export class PublishedCoursePrerequisite {
  @PrimaryColumn('uuid') publishedCourseId: string;
  @PrimaryColumn('uuid') prerequisiteId: string;
  @Column('uuid') organizationId: string;
  @Column('timestamptz') createdAt: Date;
}
