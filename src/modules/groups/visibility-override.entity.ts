import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A group's visibility override for a published course. Identity is the tuple
 * (group, published course, is_visible): true = allowlist (force visible), false = blocklist.
 */
@Entity('visibility_overrides')
export class VisibilityOverride {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') groupId: string;
  @Column('uuid') publishedCourseId: string;
  @Column('boolean') isVisible: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

export function overrideFromRow(r: Record<string, any>): VisibilityOverride {
  const o = new VisibilityOverride();
  o.id = r.id;
  o.organizationId = r.organization_id;
  o.groupId = r.group_id;
  o.publishedCourseId = r.published_course_id;
  o.isVisible = r.is_visible;
  o.createdAt = r.created_at;
  o.updatedAt = r.updated_at;
  return o;
}
