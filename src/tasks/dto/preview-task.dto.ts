import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalText, RequiredText } from '../../common/validation/fields';
import { TEXT_MAX, TEXT_MIN } from './create-task.dto';

export class PreviewTaskDto {
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
}
