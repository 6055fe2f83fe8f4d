import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';

const REQUIRED = { message: 'This field is required.' };

export class LaunchUserRef {
  @IsDefined(REQUIRED)
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  id: string;
}

/** POST /v1/lessons/{lesson_id}/launches: the learner. */
export class LaunchRequestV1 {
  @IsDefined(REQUIRED)
  @IsObject({ message: 'Expected a dictionary of items.' })
  @ValidateNested()
  @Type(() => LaunchUserRef)
  user: LaunchUserRef;

  /** The item of the package to play: a SCORM item identifier or a cmi5 AU id (default: the first). */
  @IsOptional()
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  @MaxLength(2000, { message: 'Ensure this field has no more than 2000 characters.' })
  item?: string;
}

export class LaunchAttributesV2 {
  @IsDefined(REQUIRED)
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  lesson_id: string;

  @IsDefined(REQUIRED)
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  student_id: string;

  /** The item of the package to play: a SCORM item identifier or a cmi5 AU id (default: the first). */
  @IsOptional()
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  @MaxLength(2000, { message: 'Ensure this field has no more than 2000 characters.' })
  item?: string;
}

export class LaunchDataV2 {
  @IsDefined(REQUIRED)
  @IsIn(['launches'], { message: 'Must be "launches".' })
  type: 'launches';

  @IsDefined(REQUIRED)
  @IsObject({ message: 'Expected an object.' })
  @ValidateNested()
  @Type(() => LaunchAttributesV2)
  attributes: LaunchAttributesV2;
}

/** POST /v2/launches/: `{"data": {"type": "launches", "attributes": {"lesson_id", "student_id"}}}`. */
export class LaunchRequestV2 {
  @IsDefined(REQUIRED)
  @IsObject({ message: 'Expected an object.' })
  @ValidateNested()
  @Type(() => LaunchDataV2)
  data: LaunchDataV2;
}
