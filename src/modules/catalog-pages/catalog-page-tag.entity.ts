import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `catalog_page_tags` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('catalog_page_tags')
export class CatalogPageTag {
  @Column('uuid') organizationId: string;
  @PrimaryColumn('uuid') catalogPageId: string;
  @PrimaryColumn('uuid') tagId: string;
  @Column('timestamptz') createdAt: Date;
}
