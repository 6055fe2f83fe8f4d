import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A label attached to a course. */
@Entity('course_labels')
export class CourseLabel {
  @PrimaryColumn('uuid') courseId: string;
  @PrimaryColumn('uuid') labelId: string;
  @Column('uuid') organizationId: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
