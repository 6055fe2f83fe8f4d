import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `path_tags` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('path_tags')
export class PathTag {
  @PrimaryColumn('uuid') publishedPathId: string;
  @PrimaryColumn('uuid') tagId: string;
  @Column('uuid') organizationId: string;
  @Column('timestamptz') createdAt: Date;
}
