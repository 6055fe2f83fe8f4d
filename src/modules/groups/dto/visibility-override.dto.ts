import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsObject, IsString, ValidateNested } from 'class-validator';

/** VisibilityOverrideAddRequest / VisibilityOverrideRemoveRequest (the same members). */
export class VisibilityOverrideAttributesIn {
  /** Any string: one that cannot be decoded (too long included) is that item's not_found, not a validation_error. */
  @IsString()
  published_course_id: string;

  /** defaults to true (allowlist) when omitted; null is not a boolean */
  @IsBoolean()
  is_visible: boolean = true;
}

/** _VisibilityOverrideAddData and _VisibilityOverrideRemoveData */
export class VisibilityOverrideItem {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => VisibilityOverrideAttributesIn)
  attributes: VisibilityOverrideAttributesIn;
}

/** first-wins dedupe key of an override item: the (published_course_id, is_visible) tuple */
export function overrideTupleKey(raw: Record<string, any>): string | undefined {
  const a = raw?.attributes;
  if (!a || typeof a !== 'object' || typeof a.published_course_id !== 'string') return undefined;
  const visible = a.is_visible === undefined ? true : a.is_visible;
  return `${a.published_course_id}|${JSON.stringify(visible)}`;
}
