import { Column, Entity } from 'typeorm';
import { UpdatedOrgEntity } from '../../core/database/org-entity';

/**
 * A group's visibility override for a published course. Identity is the tuple
 * (group, published course, is_visible): true = allowlist (force visible), false = blocklist.
 */
@Entity('visibility_overrides')
export class VisibilityOverride extends UpdatedOrgEntity {
  @Column('uuid') groupId: string;
  @Column('uuid') publishedCourseId: string;
  @Column('boolean') isVisible: boolean;
}
