import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `course_series_items` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('course_series_items')
export class CourseSeriesItem {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') courseSeriesId: string;
  @Column('uuid') publishedCourseId: string;
  @Column('integer') order: number;
  @Column('timestamptz') createdAt: Date;
}
