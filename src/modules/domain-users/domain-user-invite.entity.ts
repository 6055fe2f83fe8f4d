import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `domain_user_invites` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: domain-user-invites.store.ts. */
@Entity('domain_user_invites')
export class DomainUserInvite {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') domainId: string;
  @Column('uuid') userId: string;
  @Column('boolean') sendEmail: boolean;
  @Column('timestamptz', { nullable: true }) sentAt: Date | null;
  @Column('timestamptz', { nullable: true }) usedAt: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('bytea') tokenHash: Buffer;
  @Column('timestamptz') updatedAt: Date;
}
