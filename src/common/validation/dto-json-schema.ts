import type { Type } from '@nestjs/common';
import { getMetadataStorage, type MetadataStorage } from 'class-validator';
import { documentedProperties } from '../openapi/documented-properties';

/** One class-validator rule of a property, as the metadata storage gives it. */
type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** The JSON Schema subset a request DTO's rules translate to. */
export interface JsonSchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  description?: string;
  default?: unknown;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
}

export interface JsonObjectSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
}

/**
 * The JSON Schema of a request DTO, read from the class-validator rules that validate it (and
 * the descriptions of its `@ApiProperty()`), so a schema published elsewhere (an MCP tool's
 * `inputSchema`) states the same bounds as the API without a second copy of them. Rules with no
 * JSON Schema form are left out of the schema; the DTO still enforces them.
 */
export function dtoJsonSchema(dto: Type<unknown>): JsonObjectSchema {
  const documentedFields = documentedProperties(dto);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    const rules = byProperty.get(rule.propertyName) ?? [];
    rules.push(rule);
    byProperty.set(rule.propertyName, rules);
  }
  const schema: JsonObjectSchema = { type: 'object', properties: {}, required: [] };
  for (const [property, rules] of byProperty) {
    const field: JsonSchema = {};
    for (const rule of rules) applyRule(field, rule, dto, property);
    const documented = documentedFields[property] ?? {};
    if (documented.description) field.description = documented.description;
    if (documented.default !== undefined) field.default = documented.default;
    const items = documented.items;
    if (field.type === 'array' && items && !('$ref' in items) && items.description)
      field.items = { type: 'object', description: items.description };
    schema.properties[property] = field;
    // A field required only under a condition (`@ValidateIf`) is optional in the schema; its
    // description says when it is needed.
    if (
      rules.some((rule) => rule.type === 'isDefined') &&
      !rules.some((rule) => rule.type === 'conditionalValidation')
    )
      schema.required.push(property);
  }
  return schema;
}

function applyRule(
  field: JsonSchema,
  rule: ValidationMetadata,
  dto: Type<unknown>,
  property: string,
): void {
  const [first] = (rule.constraints ?? []) as unknown[];
  if (rule.type === 'nestedValidation') {
    // The declared type of the field (`emitDecoratorMetadata`), the class `@Type()` names.
    const nested: unknown = Reflect.getMetadata('design:type', dto.prototype as object, property);
    if (typeof nested === 'function' && nested !== Object && nested !== Array) {
      const { properties, required } = dtoJsonSchema(nested as Type<unknown>);
      Object.assign(field, { type: 'object', properties, required });
    }
    return;
  }
  switch (rule.name) {
    case 'isString':
      field.type = 'string';
      break;
    case 'minLength':
      field.minLength = first as number;
      break;
    case 'maxLength':
      field.maxLength = first as number;
      break;
    case 'isIn':
      field.enum = [...(first as unknown[])];
      break;
    case 'isBoolean':
      field.type = 'boolean';
      break;
    case 'isInt':
      field.type = 'integer';
      break;
    case 'min':
      field.minimum = first as number;
      break;
    case 'max':
      field.maximum = first as number;
      break;
    case 'isArray':
      field.type = 'array';
      break;
    case 'arrayMaxSize':
      field.maxItems = first as number;
      break;
    case 'isObject':
      field.type = 'object';
      break;
    case 'matches':
      field.type = 'string';
      field.pattern = first instanceof RegExp ? first.source : String(first);
      break;
    case 'isUuid':
      field.type = 'string';
      field.format = 'uuid';
      break;
    case 'isEmail':
      field.type = 'string';
      field.format = 'email';
      break;
  }
}
