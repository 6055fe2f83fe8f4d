import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `lrs_keys` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: lrs-keys.store.ts. */
@Entity('lrs_keys')
export class LrsKey {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') key: string;
  @Column('bytea') secretHash: Buffer;
  @Column('boolean') canRead: boolean;
  @Column('boolean') canWrite: boolean;
  @Column('text') name: string;
  @Column('uuid', { nullable: true }) launchId: string | null;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('timestamptz') createdAt: Date;
}
