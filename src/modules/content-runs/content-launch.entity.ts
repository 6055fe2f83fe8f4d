import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `content_launches` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: content-launches.store.ts. */
@Entity('content_launches')
export class ContentLaunch {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') attemptId: string;
  @Column('bytea') tokenHash: Buffer;
  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) openedAt: Date | null;
  @Column('timestamptz') sessionExpiresAt: Date;
  @Column('text') sessionState: string;
  @Column('text') entry: string;
  @Column('timestamptz', { nullable: true }) fetchedAt: Date | null;
  @Column('timestamptz') createdAt: Date;
}
