import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A student's membership of a group; removed with the group (ON DELETE CASCADE). */
@Entity('group_memberships')
export class GroupMembership {
  @PrimaryColumn('uuid') groupId: string;
  @PrimaryColumn('uuid') userId: string;
  @Column('uuid') organizationId: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
