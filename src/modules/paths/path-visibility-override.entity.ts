import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `path_visibility_overrides` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('path_visibility_overrides')
export class PathVisibilityOverride {
  @PrimaryColumn('uuid') publishedPathId: string;
  @PrimaryColumn('uuid') groupId: string;
  @Column('uuid') organizationId: string;
  @Column('boolean') isVisible: boolean;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
