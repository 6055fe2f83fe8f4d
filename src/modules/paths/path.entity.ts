import { Column, Entity } from 'typeorm';
import { SoftDeletedOrgEntity } from '../../core/database/org-entity';

/** A learning path of the organization (/v1/paths); published to domains as PublishedPath. */
@Entity('paths')
export class LearningPath extends SoftDeletedOrgEntity {
  @Column('text') title: string;
  @Column('text') shortDescription: string;
  @Column('text') longDescriptionHtml: string;
  @Column('text') headerHtml: string;
  @Column('text') courseNameSingular: string;
  @Column('text') courseNamePlural: string;
  @Column('text') promoImageUrl: string;
  @Column('text') searchKeywords: string;
}
