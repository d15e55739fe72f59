import { ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalEnum } from '../../common/validation/fields';

export class ListTasksQueryDto {
  @ApiPropertyOptional({ enum: ['active', 'paused', 'completed'] })
  @OptionalEnum(['active', 'paused', 'completed'])
  state?: 'active' | 'paused' | 'completed';
}
