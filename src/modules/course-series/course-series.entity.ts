import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A course series (course family) on a domain: an ordered set of its published courses. */
@Entity('course_series')
export class CourseSeries {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') domainId: string;
  @Column('text') title: string;
  @Column('text') slug: string;
  @Column('boolean') visibleOnCatalog: boolean;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
