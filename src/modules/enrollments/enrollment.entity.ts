import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A student's enrollment in a published course (course_id is denormalized from it). */
@Entity('enrollments')
export class Enrollment {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') userId: string;
  @Column('uuid') publishedCourseId: string;
  @Column('uuid') courseId: string;
  @Column('timestamptz') enrolledAt: Date;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('boolean') active: boolean;
  @Column('timestamptz', { nullable: true }) dueAt: Date | null;
  @Column('timestamptz', { nullable: true }) startedAt: Date | null;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
