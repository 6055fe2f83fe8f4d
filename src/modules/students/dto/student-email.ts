import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, MaxLength } from 'class-validator';
import { Rules } from '../../../core/http/rules';
import { EMAIL_MAX } from './student-batch.dto';

/**
 * A student's e-mail in a request body, required (StudentCreateRequest's `email`, and the student a
 * /v2 enrollment is made for): a string of at most EMAIL_MAX characters that is an e-mail address.
 */
export const StudentEmail = (): PropertyDecorator =>
  Rules(ApiProperty({ format: 'email', maxLength: EMAIL_MAX }), IsString(), MaxLength(EMAIL_MAX), IsEmail({}, { message: 'email must be a valid email address' }));
