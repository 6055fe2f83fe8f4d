import { Bool, Choice, requireMembers, Str, StrList } from '../../../core/http/v1-rules';

/** The access levels of a manager to courses and paths (docs/decisions/manager-access.md). */
export const MANAGER_ACCESS_LEVELS = ['NONE', 'SELECTED', 'ALL'] as const;

/** ManagerAccessUpdateRequestRequest: group_name and both access levels required; the id lists replace the stored ones. */
export class ManagerAccessRequest {
  @Str({ min: 1, max: 255 }) group_name!: string;
  @Bool() can_create_users?: boolean;
  @Choice(MANAGER_ACCESS_LEVELS) course_access_level!: string;
  @StrList(64) course_ids?: string[];
  @Choice(MANAGER_ACCESS_LEVELS) path_access_level!: string;
  @StrList(64) path_ids?: string[];
  @StrList(64) license_ids?: string[];
}
requireMembers(ManagerAccessRequest, ['group_name', 'course_access_level', 'path_access_level']);
