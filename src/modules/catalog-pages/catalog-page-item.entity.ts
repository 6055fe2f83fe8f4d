import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `catalog_page_items` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: catalog-page-items.store.ts. */
@Entity('catalog_page_items')
export class CatalogPageItem {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') catalogPageId: string;
  @Column('uuid', { nullable: true }) blockId: string | null;
  @Column('integer') order: number;
  @Column('text') itemType: string;
  @Column('uuid', { nullable: true }) itemCatalogPageId: string | null;
  @Column('uuid', { nullable: true }) itemPublishedCourseId: string | null;
  @Column('uuid', { nullable: true }) itemPublishedPathId: string | null;
  @Column('uuid', { nullable: true }) itemPlanId: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
