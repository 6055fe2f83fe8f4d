import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `group_access_code_pools` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: group-access-code-pools.store.ts. */
@Entity('group_access_code_pools')
export class GroupAccessCodePool {
  @PrimaryColumn('uuid') groupId: string;
  @PrimaryColumn('uuid') accessCodePoolId: string;
  @Column('uuid') organizationId: string;
  @Column('timestamptz') createdAt: Date;
}
