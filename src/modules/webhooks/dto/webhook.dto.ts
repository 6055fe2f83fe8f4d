import { Allow, IsBoolean, IsIn, ValidateIf } from 'class-validator';
import { EVENT_TYPES, EventType } from '../../../core/events/outbox';

/** The member may be absent; when present it is validated (null included, so null is rejected). */
const Present = () => ValidateIf((_o, v) => v !== undefined);
/** The member may be absent or null. */
const PresentNotNull = () => ValidateIf((_o, v) => v !== undefined && v !== null);
const EVENT_TYPE_MESSAGE = `Must be one of ${EVENT_TYPES.join(', ')}, or null.`;

/**
 * Members shared by WebHookRequest (POST, PUT) and PatchedWebHookRequest (PATCH).
 * `target_url`, `basic_auth_*` and `additional_headers` are checked by the service (one message
 * per member; target_url required on POST and PUT; headers an object of string values, no
 * reserved header names). Null for basic_auth_* and additional_headers means "clear" (as "" and {} do).
 */
class WebhookMembers {
  @Present() @IsBoolean({ message: 'Must be a valid boolean.' }) active?: boolean;
  @PresentNotNull() @IsIn(EVENT_TYPES as unknown as string[], { message: EVENT_TYPE_MESSAGE }) event_type?: EventType | null;
  @Allow() basic_auth_username?: string | null;
  @Allow() basic_auth_password?: string | null;
  @Allow() additional_headers?: unknown;
}

/** PATCH: every member optional. */
export class WebhookPatchDto extends WebhookMembers {
  @Allow() target_url?: string;
}

/** POST and PUT: target_url is required (PUT is otherwise partial, resource-reference-api.md section 4). */
export class WebhookDto extends WebhookMembers {
  @Allow() target_url: string;
}
