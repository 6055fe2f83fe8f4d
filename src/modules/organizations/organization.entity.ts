import { Column, Entity } from 'typeorm';
import { OrgEntity, UpdatedEntity } from '../../core/database/org-entity';

@Entity('organizations')
export class Organization extends UpdatedEntity {
  @Column('text') name: string;
  /** the organization's password rule for learners (minimum length) */
  @Column('int') passwordMinLength: number;
  @Column('integer') ratingScale: number;
}

/** An organization administrator: signs in on the authorization page. */
@Entity('admins')
export class Admin extends OrgEntity {
  @Column('text') email: string;
  @Column('text', { nullable: true }) passwordHash: string | null;
  @Column('text') role: string;
  @Column('timestamptz', { nullable: true }) lastSignInAt: Date | null;
  @Column({ type: 'timestamptz', update: false }) updatedAt: Date;
}

@Entity('api_keys')
export class ApiKey extends OrgEntity {
  @Column('bytea') keyHash: Buffer;
  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
}
