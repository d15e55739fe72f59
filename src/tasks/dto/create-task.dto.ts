import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsOptional } from 'class-validator';
import {
  OptionalBoolean,
  OptionalEnum,
  OptionalText,
  RequiredText,
} from '../../common/validation/fields';
import { DEFAULT_TASK_NAME } from '../task.entity';
import { NotificationConfigDto, NotificationsProperty } from './notification-config.dto';

export const TEXT_MIN = 10;
export const TEXT_MAX = 500;
export const NAME_MAX = 200;

@ApiExtraModels(NotificationConfigDto)
export class CreateTaskDto {
  @ApiPropertyOptional({ maxLength: NAME_MAX, default: DEFAULT_TASK_NAME })
  @OptionalText({ min: 1, max: NAME_MAX })
  name?: string;

  @ApiProperty({ minLength: TEXT_MIN, maxLength: TEXT_MAX })
  @RequiredText({ min: TEXT_MIN, max: TEXT_MAX })
  search_query: string;

  @ApiPropertyOptional({
    minLength: TEXT_MIN,
    maxLength: TEXT_MAX,
    description: 'Defaults to search_query',
  })
  @OptionalText({ min: TEXT_MIN, max: TEXT_MAX })
  condition_description?: string;

  @ApiPropertyOptional({ enum: ['active', 'paused'], default: 'active' })
  @OptionalEnum(['active', 'paused'])
  state?: 'active' | 'paused';

  @ApiPropertyOptional({ enum: ['once', 'always'], default: 'once' })
  @OptionalEnum(['once', 'always'])
  notify_behavior?: 'once' | 'always';

  @ApiPropertyOptional({ default: false })
  @OptionalBoolean()
  run_immediately?: boolean;

  @NotificationsProperty({ required: false, description: 'At most one config per type' })
  @IsOptional()
  @IsArray({ message: 'Input should be a valid list' })
  notifications?: unknown[];
}
