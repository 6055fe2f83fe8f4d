import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `published_course_tags` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('published_course_tags')
export class PublishedCourseTag {
  @PrimaryColumn('uuid') publishedCourseId: string;
  @PrimaryColumn('uuid') tagId: string;
  @Column('uuid') organizationId: string;
  @Column('timestamptz') createdAt: Date;
}
