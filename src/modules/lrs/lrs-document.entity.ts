import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `lrs_documents` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: lrs-documents.store.ts. */
@Entity('lrs_documents')
export class LrsDocument {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') kind: string;
  @Column('text') activityId: string;
  @Column('text') agent: string;
  @Column('text') registration: string;
  @Column('text') docId: string;
  @Column('bytea') content: Buffer;
  @Column('text') contentType: string;
  @Column('text') etag: string;
  @Column('timestamptz') updated: Date;
}
