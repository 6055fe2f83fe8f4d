import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `admin_roles` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: admin-roles.store.ts. */
@Entity('admin_roles')
export class AdminRole {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @Column('text', { array: true }) scopes: string[];
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
