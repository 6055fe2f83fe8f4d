import { Column, CreateDateColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * The columns an organization's tables share, for entities to extend (TypeORM maps the decorated
 * members of an abstract base class into the table of every entity that extends it):
 * - OrgOwned: `organization_id` and `created_at` (link rows, keyed by the two objects they link);
 * - OrgEntity: and a generated uuid `id`;
 * - UpdatedOrgEntity: and `updated_at`, set on every update;
 * - SoftDeletedOrgEntity: and `deleted_at` (a plain nullable column the services set and filter
 *   on themselves, not TypeORM's @DeleteDateColumn: reads do not hide deleted rows by themselves);
 * - DomainOrgEntity / SoftDeletedDomainOrgEntity: UpdatedOrgEntity / SoftDeletedOrgEntity on a
 *   domain (`domain_id`).
 * Tables outside any organization's ownership extend CreatedEntity / UpdatedEntity (generated
 * `id`, `created_at`, `updated_at`).
 */
export abstract class OrgOwned {
  @Column('uuid') organizationId: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

export abstract class OrgEntity extends OrgOwned {
  @PrimaryGeneratedColumn('uuid') id: string;
}

export abstract class UpdatedOrgEntity extends OrgEntity {
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

const deletedAt = () => Column('timestamptz', { nullable: true });

export abstract class SoftDeletedOrgEntity extends UpdatedOrgEntity {
  @deletedAt() deletedAt: Date | null;
}

export abstract class DomainOrgEntity extends UpdatedOrgEntity {
  @Column('uuid') domainId: string;
}

export abstract class SoftDeletedDomainOrgEntity extends DomainOrgEntity {
  @deletedAt() deletedAt: Date | null;
}

export abstract class CreatedEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

export abstract class UpdatedEntity extends CreatedEntity {
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
