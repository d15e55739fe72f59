import { ApiProperty } from '@nestjs/swagger';
import { RequiredText } from '../../common/validation/fields';

export class CreateApiKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'CI pipeline' })
  @RequiredText({ min: 1, max: 100 })
  name: string;
}
