import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { OrgEntity } from '../../core/database/org-entity';

@Entity('organizations')
export class Organization {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') name: string;
  /** the organization's password rule for learners (minimum length) */
  @Column('int') passwordMinLength: number;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** An organization administrator: signs in on the authorization page. */
@Entity('admins')
export class Admin extends OrgEntity {
  @Column('text') email: string;
  @Column('text') passwordHash: string;
}

@Entity('api_keys')
export class ApiKey extends OrgEntity {
  @Column('bytea') keyHash: Buffer;
  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
}
