import { Column, Entity } from 'typeorm';
import { UpdatedOrgEntity } from '../../core/database/org-entity';

/** A category groups can be filed under (the /v1 StudentGroupCategory). No /v2 endpoint creates these. */
@Entity('group_categories')
export class GroupCategory extends UpdatedOrgEntity {
  @Column('text') name: string;
}
