import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsString, MinLength, ValidateNested } from 'class-validator';

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
