import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `catalog_page_visibility_overrides` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('catalog_page_visibility_overrides')
export class CatalogPageVisibilityOverride {
  @Column('uuid') organizationId: string;
  @PrimaryColumn('uuid') catalogPageId: string;
  @PrimaryColumn('uuid') groupId: string;
  @Column('boolean') isVisible: boolean;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
