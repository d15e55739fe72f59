import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import {
  MAX_DESCRIPTION_CHARS,
  MAX_ENUM_VALUES,
  MAX_OUTPUT_PROPERTIES,
  OUTPUT_VALUE_TYPES,
  type OutputValueType,
} from '../../search/output-schema';
import { CONFIRMATIONS_RANGE, MAX_TRUSTED_DOMAINS, MIN_DOMAINS_RANGE } from '../evidence-rule';

/**
 * The OpenAPI shapes of `output_schema` and `evidence` (docs/api.md, "Values, evidence,
 * confirmation and retraction"). Requests are checked by `validateOutputSchema` and
 * `validateEvidenceRule`, which answer 400 `Invalid output_schema: ...` and `Invalid evidence:
 * ...` rather than the 422 of field validation.
 */
export class OutputPropertyDto {
  @ApiProperty({ enum: OUTPUT_VALUE_TYPES })
  type: OutputValueType;

  @ApiPropertyOptional({ maxLength: MAX_DESCRIPTION_CHARS })
  description?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    minItems: 1,
    maxItems: MAX_ENUM_VALUES,
    description: 'Values of the property type',
  })
  enum?: Array<string | number | boolean>;
}

export class OutputSchemaDto {
  @ApiProperty({ enum: ['object'] })
  type: 'object';

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(OutputPropertyDto) },
    minProperties: 1,
    maxProperties: MAX_OUTPUT_PROPERTIES,
    description: 'Names match ^[a-z][a-z0-9_]{0,39}$; no nesting, no $ref; 8 kB at most in all',
  })
  properties: Record<string, OutputPropertyDto>;

  @ApiPropertyOptional({ type: [String], description: 'Names of properties' })
  required?: string[];
}

export class EvidenceRuleDto {
  @ApiProperty({
    type: 'integer',
    minimum: MIN_DOMAINS_RANGE.min,
    maximum: MIN_DOMAINS_RANGE.max,
    default: 1,
  })
  min_domains: number;

  @ApiProperty({
    type: [String],
    maxItems: MAX_TRUSTED_DOMAINS,
    default: [],
    description: 'Host names; a source matches one when its domain equals it or is a subdomain',
  })
  trusted_domains: string[];

  @ApiProperty({
    type: 'integer',
    minimum: CONFIRMATIONS_RANGE.min,
    maximum: CONFIRMATIONS_RANGE.max,
    default: 1,
  })
  confirmations: number;
}

/** `output_schema` in requests and answers; the class names the DTOs in `@ApiExtraModels`. */
export function OutputSchemaProperty(options: { required: boolean; description: string }) {
  return applyDecorators(
    ApiProperty({
      required: options.required,
      type: OutputSchemaDto,
      nullable: true,
      description: options.description,
    }),
  );
}

export function EvidenceProperty(options: { required: boolean; description: string }) {
  return applyDecorators(
    ApiProperty({
      required: options.required,
      type: EvidenceRuleDto,
      nullable: true,
      description: options.description,
    }),
  );
}
