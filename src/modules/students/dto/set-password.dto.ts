import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsString, ValidateNested } from 'class-validator';
import { Attributes, Rules } from '../../../core/http/rules';

/** As the published SetPasswordAttributes; length rules are the organization's (checked by the service). */
export class SetPasswordAttributes {
  @ApiProperty() @IsString() password: string;
}

/** As the published _SetPasswordData. */
export class SetPasswordData {
  @ApiProperty({ enum: ['password-sets'] }) @IsIn(['password-sets'], { message: 'type must be "password-sets"' }) type: 'password-sets';
  @ApiProperty({ type: SetPasswordAttributes }) @Attributes(() => SetPasswordAttributes) attributes: SetPasswordAttributes;
}

/** As the published SetPasswordRequestEnvelope: `data` required, an object, validated as SetPasswordData. */
export class SetPasswordRequestEnvelope {
  @ApiProperty({ type: SetPasswordData }) @Rules(IsDefined(), IsObject(), ValidateNested(), Type(() => SetPasswordData)) data: SetPasswordData;
}
