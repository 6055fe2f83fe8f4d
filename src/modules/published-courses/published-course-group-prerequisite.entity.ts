import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `published_course_group_prerequisites` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('published_course_group_prerequisites')
export class PublishedCourseGroupPrerequisite {
  @PrimaryColumn('uuid') publishedCourseId: string;
  @PrimaryColumn('uuid') groupId: string;
  @Column('uuid') organizationId: string;
  @Column('timestamptz') createdAt: Date;
}
