import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `catalog_pages` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: catalog-pages.store.ts. */
@Entity('catalog_pages')
export class CatalogPage {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') domainId: string;
  @Column('text') pageTitle: string;
  @Column('text') slug: string;
  @Column('text') shortDescription: string;
  @Column('text') tileCallout: string;
  @Column('boolean') hidden: boolean;
  @Column('boolean') strictEnforceGroupVisibility: boolean;
  @Column('boolean') isClassic: boolean;
  @Column('text') headerHtml: string;
  @Column('text') tileSortMethod: string;
  @Column('text') searchLocation: string;
  @Column('text') searchBehavior: string;
  @Column('text') itemLayout: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
