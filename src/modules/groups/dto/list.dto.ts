import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

/** GroupFilters (page[size] and page[cursor] are read by parsePage from the raw query). */
export class GroupListQuery {
  @IsOptional()
  @IsString()
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
