import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A student group of an organization. Hard-deleted; memberships and visibility overrides cascade. */
@Entity('groups')
export class Group {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @Column('uuid', { nullable: true }) categoryId: string | null;
  @Column('text', { array: true }) ruleEmailDomains: string[];
  @Column('boolean', { nullable: true }) sendCourseEnrollmentEmail: boolean | null;
  @Column('integer', { nullable: true }) discountPercent: number | null;
  @Column('jsonb', { nullable: true }) signUpFieldRule: unknown;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** Map a raw `groups` row (snake_case, from INSERT/UPDATE ... RETURNING) to the entity shape. */
export function groupFromRow(r: Record<string, any>): Group {
  const g = new Group();
  g.id = r.id;
  g.organizationId = r.organization_id;
  g.name = r.name;
  g.categoryId = r.category_id ?? null;
  g.ruleEmailDomains = r.rule_email_domains ?? [];
  g.sendCourseEnrollmentEmail = r.send_course_enrollment_email ?? null;
  g.discountPercent = r.discount_percent ?? null;
  g.signUpFieldRule = r.sign_up_field_rule ?? null;
  g.createdAt = r.created_at;
  g.updatedAt = r.updated_at;
  return g;
}
