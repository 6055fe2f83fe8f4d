import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { NoNul, Present } from '../../../core/http/v1-rules';
import { EMAIL_MAX, NAME_MAX } from './student-batch.dto';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * UserUpdateRequest / PatchedUserUpdateRequest (users_update, users_partial_update): both partial,
 * only `email`, `first_name` and `last_name`; every other member is ignored (whitelisted away), as
 * the published serializer ignores its read-only members. Strings are trimmed (Django REST
 * framework's CharField default); null is refused on all three; the names may be blank, the email
 * may not.
 */
export class V1UserUpdateDto {
  @Present()
  @Transform(trim)
  @IsString()
  @NoNul()
  @MinLength(1, { message: 'This field may not be blank.' })
  @MaxLength(EMAIL_MAX)
  @IsEmail({}, { message: 'Enter a valid email address.' })
  email?: string;

  @Present() @Transform(trim) @IsString() @NoNul() @MaxLength(NAME_MAX) first_name?: string;
  @Present() @Transform(trim) @IsString() @NoNul() @MaxLength(NAME_MAX) last_name?: string;
}
