import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `lrs_attachments` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: lrs-attachments.store.ts. */
@Entity('lrs_attachments')
export class LrsAttachment {
  @PrimaryColumn('uuid') organizationId: string;
  @PrimaryColumn('text') sha2: string;
  @Column('text') contentType: string;
  @Column('bytea') content: Buffer;
}
