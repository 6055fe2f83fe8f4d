import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `scim_user_links` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('scim_user_links')
export class ScimUserLink {
  @PrimaryColumn('uuid') organizationId: string;
  @PrimaryColumn('uuid') userId: string;
  @Column('text') externalId: string;
  @Column('timestamptz') createdAt: Date;
}
