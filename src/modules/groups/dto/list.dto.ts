import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { NO_NUL } from './group.dto';

/** GroupFilters (page[size] and page[cursor] are read by parsePage from the raw query). */
export class GroupListQuery {
  @IsOptional()
  @IsString()
  @Matches(NO_NUL, { message: 'must not contain NUL characters' })
  'filter[name]'?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  'filter[category_id]'?: string;
}

/** VisibilityOverrideFilters */
export class VisibilityOverrideListQuery {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  'filter[published_course_id]'?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  'filter[is_visible]'?: string;
}
