import { ApiProperty } from '@nestjs/swagger';
import { RequiredBoolean } from '../../common/validation/fields';

export class SetVisibilityDto {
  @ApiProperty({ description: 'true: anyone can read and fork the task' })
  @RequiredBoolean()
  is_public: boolean;
}
