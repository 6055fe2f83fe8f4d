import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { Rules } from '../../../core/http/rules';
import { PresentNotNull } from '../../../core/http/v1-rules';

/** A bare domain name (`example.com`, `mail.example.co.uk`): no scheme, no `@`, no port, no path. */
export const DOMAIN_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;
export const MAX_RULE_DOMAINS = 100;
/** PostgreSQL text cannot hold NUL characters: reject them as input instead of failing in SQL. */
export const NO_NUL = /^[^\u0000]*$/;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A group's name: trimmed, 1 to 100 characters, no NUL. */
const GroupName = () => Rules(Transform(trim), IsString(), MinLength(1), MaxLength(100), Matches(NO_NUL, { message: 'must not contain NUL characters' }));

/** The members of GroupCreateRequest and GroupUpdateRequest besides the name; each optional. */
class GroupOptionalAttributes {
  // null clears the list (stored as an empty array)
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_RULE_DOMAINS)
  @IsString({ each: true })
  @Matches(DOMAIN_RE, { each: true, message: 'each entry must be a bare domain such as example.com' })
  rule_email_domains?: string[] | null;

  @IsOptional()
  @IsBoolean()
  send_course_enrollment_email?: boolean | null;

  // null clears the category; omitted leaves it unchanged
  @IsOptional()
  @IsString()
  @MaxLength(64)
  category_id?: string | null;
}

/** GroupCreateRequest (the item attributes of POST /v2/groups/). */
export class GroupCreateAttributes extends GroupOptionalAttributes {
  @GroupName()
  name: string;
}

/** _GroupCreateData */
export class GroupCreateItem {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => GroupCreateAttributes)
  attributes: GroupCreateAttributes;
}

/** GroupUpdateRequest: every member optional, at least one present (checked by the service on the raw item). */
export class GroupUpdateAttributes extends GroupOptionalAttributes {
  // null is not a name: validated whenever present
  @ValidateIf((o) => o.name !== undefined)
  @GroupName()
  name?: string;
}

/** _GroupUpdateData */
export class GroupUpdateItem {
  /** Any string: an id that cannot be decoded (too long included) is that item's not_found (v2-api.md rule 4), not a validation_error. */
  @IsString()
  id: string;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => GroupUpdateAttributes)
  attributes: GroupUpdateAttributes;
}

/** _GroupDeleteData */
export class GroupDeleteItem {
  /** Any string: an id that cannot be decoded (too long included) is that item's not_found (v2-api.md rule 4), not a validation_error. */
  @IsString()
  id: string;
}

export const GROUP_UPDATABLE = ['name', 'rule_email_domains', 'send_course_enrollment_email', 'category_id'] as const;
