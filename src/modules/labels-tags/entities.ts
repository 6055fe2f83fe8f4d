import { Column, Entity } from 'typeorm';
import { UpdatedOrgEntity } from '../../core/database/org-entity';

/** A label of the organization (`/v1/labels`); courses carry labels through course_labels. */
@Entity('labels')
export class Label extends UpdatedOrgEntity {
  @Column('text') name: string;
}

/** A catalog tag of the organization (`/v1/tags`). */
@Entity('tags')
export class Tag extends UpdatedOrgEntity {
  @Column('text') name: string;
  @Column('text') slug: string;
}
