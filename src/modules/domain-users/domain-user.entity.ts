import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `domain_users` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: domain-users.store.ts. */
@Entity('domain_users')
export class DomainUserEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') domainId: string;
  @Column('uuid') userId: string;
  @Column('boolean') active: boolean;
  @Column('boolean', { nullable: true }) marketingOptin: boolean | null;
  @Column('timestamptz') enrolledAt: Date;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('uuid', { nullable: true }) accessCodeId: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
