import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type DomainAccess = 'PUBLIC' | 'PRIVATE' | 'PRIVATE_CODE';

/** A learner-facing domain (catalog) of an organization; courses are published to domains. */
@Entity('domains')
export class Domain {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @Column('text') access: DomainAccess;
  @Column('text') catalogTitle: string;
  @Column('text') accessCodeMessageHtml: string;
  @Column('text') marketingMessage: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
