import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `catalog_page_blocks` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: catalog-page-blocks.store.ts. */
@Entity('catalog_page_blocks')
export class CatalogPageBlock {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') catalogPageId: string;
  @Column('integer') order: number;
  @Column('text') type: string;
  @Column('text') html: string;
  @Column('text', { nullable: true }) component: string | null;
  @Column('text') headerText: string;
  @Column('text') headerSubText: string;
  @Column('boolean') includeProfileLink: boolean;
  @Column('integer') maxTiles: number;
  @Column('text', { nullable: true }) alignment: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
