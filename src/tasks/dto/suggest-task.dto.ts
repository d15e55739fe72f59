import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { OptionalText, RequiredText } from '../../common/validation/fields';

export class SuggestCurrentTaskDto {
  @ApiPropertyOptional()
  @OptionalText({ max: 200 })
  name?: string;

  @ApiPropertyOptional()
  @OptionalText({ max: 500 })
  search_query?: string;

  @ApiPropertyOptional()
  @OptionalText({ max: 500 })
  condition_description?: string;

  @ApiPropertyOptional({ description: 'cron expression, 5 fields' })
  @OptionalText({ max: 100 })
  schedule?: string;

  @ApiPropertyOptional({ enum: ['once', 'always'] })
  @OptionalText({ max: 10 })
  notify_behavior?: string;
}

export class SuggestTaskDto {
  @ApiProperty({ minLength: 1, maxLength: 2000 })
  @RequiredText({ min: 1, max: 2000 })
  prompt: string;

  @ApiPropertyOptional({ type: SuggestCurrentTaskDto })
  @IsOptional()
  @IsObject({ message: 'Input should be a valid dictionary' })
  @ValidateNested()
  @Type(() => SuggestCurrentTaskDto)
  current_task?: SuggestCurrentTaskDto;
}
