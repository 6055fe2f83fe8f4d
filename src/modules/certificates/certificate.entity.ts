import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One issued certificate. Expired when expires_at <= now. */
@Entity('certificates')
export class Certificate {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') userId: string;
  @Column('uuid') courseId: string;
  @Column('uuid', { nullable: true }) publishedCourseId: string | null;
  @Column('uuid', { nullable: true }) domainId: string | null;
  @Column('uuid', { nullable: true }) enrollmentId: string | null;
  @Column('text') code: string;
  @Column('timestamptz') issuedAt: Date;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('int', { nullable: true }) scoreAsPercent: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
