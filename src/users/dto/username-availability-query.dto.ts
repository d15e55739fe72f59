import { ApiProperty } from '@nestjs/swagger';
import { RequiredText } from '../../common/validation/fields';

/**
 * Only presence is validated: a malformed name is answered `available: false` rather than 422, so
 * a sign-up form can ask on every keystroke and read one field.
 */
export class UsernameAvailabilityQueryDto {
  @ApiProperty({ example: 'ada_lovelace' })
  @RequiredText({ max: 200 })
  username: string;
}
