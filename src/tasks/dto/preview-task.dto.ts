import { ApiExtraModels, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalRawJson, OptionalText } from '../../common/validation/fields';
import { OutputSchemaProperty } from './alert-fields.dto';
import { SearchQueryText, TEXT_MAX, TEXT_MIN } from './create-task.dto';
import { PagesProperty, PageTargetDto } from './page-fields.dto';

@ApiExtraModels(PageTargetDto)
export class PreviewTaskDto {
  @SearchQueryText()
  search_query?: string;

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

  @PagesProperty({
    required: false,
    description: 'Pages to read instead of searching the web, validated as on create',
  })
  @OptionalRawJson()
  pages?: unknown;
}
