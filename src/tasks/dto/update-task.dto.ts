import { ApiExtraModels, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsOptional } from 'class-validator';
import { OptionalEnum, OptionalText } from '../../common/validation/fields';
import { NAME_MAX, TEXT_MAX, TEXT_MIN } from './create-task.dto';
import { NotificationConfigDto, NotificationsProperty } from './notification-config.dto';

/** Every field optional: only the fields sent change. */
@ApiExtraModels(NotificationConfigDto)
export class UpdateTaskDto {
  @ApiPropertyOptional({ maxLength: NAME_MAX })
  @OptionalText({ min: 1, max: NAME_MAX })
  name?: string;

  @ApiPropertyOptional({ minLength: TEXT_MIN, maxLength: TEXT_MAX })
  @OptionalText({ min: TEXT_MIN, max: TEXT_MAX })
  search_query?: string;

  @ApiPropertyOptional({ minLength: TEXT_MIN, maxLength: TEXT_MAX })
  @OptionalText({ min: TEXT_MIN, max: TEXT_MAX })
  condition_description?: string;

  @ApiPropertyOptional({ enum: ['active', 'paused', 'completed'] })
  @OptionalEnum(['active', 'paused', 'completed'])
  state?: 'active' | 'paused' | 'completed';

  @ApiPropertyOptional({ enum: ['once', 'always'] })
  @OptionalEnum(['once', 'always'])
  notify_behavior?: 'once' | 'always';

  @NotificationsProperty({ required: false, description: 'At most one config per type' })
  @IsOptional()
  @IsArray({ message: 'Input should be a valid list' })
  notifications?: unknown[];
}
