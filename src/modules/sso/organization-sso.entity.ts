import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `organization_sso` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: organization-sso.store.ts. */
@Entity('organization_sso')
export class OrganizationSso {
  @PrimaryColumn('uuid') organizationId: string;
  @Column('text') protocol: string;
  @Column('jsonb') settings: unknown;
  @Column('text', { nullable: true }) clientSecretEnc: string | null;
  @Column('boolean') jit: boolean;
  @Column('text') defaultRole: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
