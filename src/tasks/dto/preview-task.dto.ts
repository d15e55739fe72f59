import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalRawJson, OptionalText, RequiredText } from '../../common/validation/fields';
import { OutputSchemaProperty } from './alert-fields.dto';
import { TEXT_MAX, TEXT_MIN } from './create-task.dto';
import type { PageTarget } from '../../pages/page.types';

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

  @OutputSchemaProperty({
    required: false,
    description: 'Values to extract, as on create; the answer carries them in `values`',
  })
  @OptionalRawJson()
  output_schema?: unknown;

  pages?: PageTarget[];
}
