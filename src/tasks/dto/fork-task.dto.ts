import { ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalText } from '../../common/validation/fields';
import { NAME_MAX } from './create-task.dto';

/** The whole body is optional: `POST /fork` with no body forks under the default name. */
export class ForkTaskDto {
  @ApiPropertyOptional({
    maxLength: NAME_MAX,
    description: 'Default `{original name} (Copy)`, then `(Copy 2)`, `(Copy 3)`... when taken',
  })
  @OptionalText({ min: 1, max: NAME_MAX })
  name?: string;
}
