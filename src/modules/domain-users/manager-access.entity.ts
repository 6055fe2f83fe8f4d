import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `manager_access` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: manager-access.store.ts. */
@Entity('manager_access')
export class ManagerAccess {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') domainId: string;
  @Column('uuid') userId: string;
  @Column('uuid') groupId: string;
  @Column('boolean') canCreateUsers: boolean;
  @Column('text') courseAccessLevel: string;
  @Column('text') pathAccessLevel: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
