import { Column, CreateDateColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * The columns an organization's tables share, for entities to extend (TypeORM maps the decorated
 * members of an abstract base class into the table of every entity that extends it):
 * - OrgOwned: `organization_id` and `created_at` (link rows, keyed by the two objects they link);
 * - OrgEntity: and a generated uuid `id`;
 * - UpdatedOrgEntity: and `updated_at`, set on every update.
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
