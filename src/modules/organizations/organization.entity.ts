import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

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
export class Admin {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') email: string;
  @Column('text') passwordHash: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

@Entity('api_keys')
export class ApiKey {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('bytea') keyHash: Buffer;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
}
