import { Transform } from 'class-transformer';
import { Allow, ArrayMaxSize, IsArray, IsDefined, IsInt, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { NoNul, Present, PresentNotNull } from '../../../core/http/v1-rules';
import { DOMAIN_RE, MAX_RULE_DOMAINS } from './group.dto';
import { Rules } from '../../../core/http/rules';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const DOMAIN_MESSAGE = 'Each entry must be a bare domain such as example.com.';

/** A list of bare domain names (at most MAX_RULE_DOMAINS); null is refused by the list rule. */
const DomainList = () =>
  Rules(
    PresentNotNull(),
    IsArray({ message: 'Expected a list of items.' }),
    ArrayMaxSize(MAX_RULE_DOMAINS, { message: `Ensure this field has no more than ${MAX_RULE_DOMAINS} elements.` }),
    IsString({ each: true, message: DOMAIN_MESSAGE }),
    Matches(DOMAIN_RE, { each: true, message: DOMAIN_MESSAGE }),
  );

/** A group's name once present: trimmed, 1 to 100 characters, no NUL. */
const GroupName = () =>
  Rules(
    Transform(trim),
    IsString({ message: 'Not a valid string.' }),
    MinLength(1, { message: 'This field may not be blank.' }),
    MaxLength(100, { message: 'Ensure this field has no more than 100 characters.' }),
    NoNul(),
  );

/**
 * Members shared by GroupRequest (POST), GroupUpdateRequest (PUT) and PatchedGroupUpdateRequest
 * (PATCH). `group_category_id` and `sign_up_field_rule` are checked by the service (the category
 * must be one of the organization; the rule's shape gets one message per member).
 */
class V1GroupMembers {
  @PresentNotNull()
  @IsInt({ message: 'A valid integer is required.' })
  @Min(0, { message: 'Ensure this value is greater than or equal to 0.' })
  @Max(100, { message: 'Ensure this value is less than or equal to 100.' })
  discount_percent?: number | null;

  @PresentNotNull()
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  group_category_id?: string | null;

  @Allow()
  sign_up_field_rule?: unknown;
}

class NameRequired extends V1GroupMembers {
  @IsDefined({ message: 'This field is required.' })
  @GroupName()
  name: string;
}

/** POST /v1/groups: `name` required; `rule_email_domains` may be set on create only. */
export class V1GroupCreateDto extends NameRequired {
  @DomainList()
  rule_email_domains?: string[] | null;
}

/** PUT /v1/groups/{id}: `name` required, otherwise partial; `rule_email_domains` is read-only here (ignored). */
export class V1GroupUpdateDto extends NameRequired {}

/** PATCH /v1/groups/{id}: every member optional. */
export class V1GroupPatchDto extends V1GroupMembers {
  @Present()
  @GroupName()
  name?: string;
}

/** PATCH /v1/groups/{id}/email-domain-rules: at least one of `add`, `remove` (checked by the service). */
export class V1EmailDomainRulePatchDto {
  @DomainList() add?: string[] | null;
  @DomainList() remove?: string[] | null;
}

/** POST /v1/groups/{id}/users: `user` {id} (checked by the service: one message for every bad shape). */
export class V1GroupUserCreateDto {
  @Allow() user: unknown;
}

/** POST /v1/groups/{id}/access-code-pools: `access_code_pool` {id} (checked by the service). */
export class V1GroupAccessCodePoolCreateDto {
  @Allow() access_code_pool: unknown;
}
