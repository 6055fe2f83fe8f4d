import { Allow, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { Filter } from '../../../core/http/v1-rules';
import { NO_NUL } from './group.dto';

/** GroupFilters (page[size] and page[cursor] are read by parsePage from the raw query). */
export class GroupListQuery {
  @IsOptional()
  @IsString()
  @Matches(NO_NUL, { message: 'must not contain NUL characters' })
  'filter[name]'?: string;

  /** an id: longer than any id, it matches nothing (Filter(): the empty page, CONVENTIONS §16) */
  @Filter({ max: 64 })
  'filter[category_id]'?: string;

  /** changed at or after (RFC 3339 with an offset), read by dateTimeParam: the list is then ordered by last change */
  @Allow()
  'filter[updated_since]'?: unknown;
}

/** VisibilityOverrideFilters */
export class VisibilityOverrideListQuery {
  @Filter({ max: 64 })
  'filter[published_course_id]'?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  'filter[is_visible]'?: string;

  /** changed at or after (RFC 3339 with an offset), read by dateTimeParam: the list is then ordered by last change */
  @Allow()
  'filter[updated_since]'?: unknown;
}
