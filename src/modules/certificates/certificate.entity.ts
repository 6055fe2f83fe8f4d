import { Column, Entity } from 'typeorm';
import { OrgEntity } from '../../core/database/org-entity';

/** One issued certificate. Expired when expires_at <= now. */
@Entity('certificates')
export class Certificate extends OrgEntity {
  @Column('uuid') userId: string;
  @Column('uuid') courseId: string;
  @Column('uuid', { nullable: true }) publishedCourseId: string | null;
  @Column('uuid', { nullable: true }) domainId: string | null;
  @Column('uuid', { nullable: true }) enrollmentId: string | null;
  @Column('text') code: string;
  @Column('timestamptz') issuedAt: Date;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('int', { nullable: true }) scoreAsPercent: number | null;
  @Column('uuid', { nullable: true }) courseProgressId: string | null;
  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
  @Column('integer', { nullable: true }) statusIndex: number | null;
  /** set by the row trigger on every update (data_out_touch) */
  @Column({ type: 'timestamptz', update: false }) updatedAt: Date;
}
