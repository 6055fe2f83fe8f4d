import { Column, Entity, PrimaryColumn } from 'typeorm';
import { OrgOwned } from '../../core/database/org-entity';

/** A student's membership of a group; removed with the group (ON DELETE CASCADE). */
@Entity('group_memberships')
export class GroupMembership extends OrgOwned {
  @PrimaryColumn('uuid') groupId: string;
  @PrimaryColumn('uuid') userId: string;
  /** a generated identifier, unique; the key is the (group, student) pair */
  @Column({ type: 'uuid', insert: false, update: false }) id: string;
}
