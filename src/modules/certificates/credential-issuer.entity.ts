import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `credential_issuers` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('credential_issuers')
export class CredentialIssuer {
  @PrimaryColumn('uuid') organizationId: string;
  @Column('integer') nextStatusIndex: number;
  @Column('timestamptz') createdAt: Date;
}
