import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsString, ValidateNested } from 'class-validator';

/** As the published SetPasswordAttributes; length rules are the organization's (checked by the service). */
export class SetPasswordAttributes {
  @ApiProperty() @IsString() password: string;
}

/** As the published _SetPasswordData. */
export class SetPasswordData {
  @ApiProperty({ enum: ['password-sets'] }) @IsIn(['password-sets'], { message: 'type must be "password-sets"' }) type: 'password-sets';
  @ApiProperty({ type: SetPasswordAttributes })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => SetPasswordAttributes)
  attributes: SetPasswordAttributes;
}

/** As the published SetPasswordRequestEnvelope. */
export class SetPasswordRequestEnvelope {
  @ApiProperty({ type: SetPasswordData })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => SetPasswordData)
  data: SetPasswordData;
}
