import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { RequiredText } from '../../common/validation/fields';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '../username.rules';

export class SetUsernameDto {
  @ApiProperty({
    minLength: USERNAME_MIN_LENGTH,
    maxLength: USERNAME_MAX_LENGTH,
    pattern: USERNAME_PATTERN.source,
    example: 'ada_lovelace',
  })
  // Checked after the text rules (decorators apply bottom-up), so a number or a too-short name
  // reports that first.
  @Matches(USERNAME_PATTERN, {
    message: `String should match pattern '${USERNAME_PATTERN.source}'`,
  })
  @RequiredText({ min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH })
  username: string;
}
