import { ApiExtraModels, PickType } from '@nestjs/swagger';
import { OptionalRawJson } from '../../common/validation/fields';
import { OutputSchemaProperty } from './alert-fields.dto';
import { CreateTaskDto } from './create-task.dto';
import { PagesProperty, PageTargetDto } from './page-fields.dto';

/**
 * The question of a create, its pages and its values, read as a create reads them; only the
 * free-form fields are declared again, for their own descriptions and because the request pipe
 * finds free-form fields on the class itself.
 */
@ApiExtraModels(PageTargetDto)
export class PreviewTaskDto extends PickType(CreateTaskDto, [
  'search_query',
  'condition_description',
  'output_schema',
  'pages',
] as const) {
  @OutputSchemaProperty({
    required: false,
    description: 'Values to extract, as on create; the answer carries them in `values`',
  })
  @OptionalRawJson()
  override output_schema?: unknown;

  @PagesProperty({
    required: false,
    description: 'Pages to read instead of searching the web, validated as on create',
  })
  @OptionalRawJson()
  override pages?: unknown;
}
