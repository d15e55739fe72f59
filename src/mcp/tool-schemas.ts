import type { Type } from '@nestjs/common';
import { z } from 'zod';
import { documentedProperties } from '../common/openapi/documented-properties';
import type { JsonObjectSchema, JsonSchema } from '../common/validation/dto-json-schema';

/**
 * A tool's `inputSchema` for the SDK: the JSON Schema derived from the REST route's DTO, carried
 * as zod metadata on fields that accept anything. Clients see the DTO's exact bounds; the SDK
 * checks only that the arguments are an object and passes them all on, unknown ones included
 * (as a REST body's unknown fields, they are judged for depth, then dropped), and the DTO
 * itself, through the API's validation pipe, judges them, so a tool refuses what the route
 * refuses, with its messages.
 */
export function toolInputSchema(schema: JsonObjectSchema): z.ZodObject {
  return z.looseObject(anyValues(schema.properties)).meta({ required: schema.required });
}

/**
 * A tool's `outputSchema`: the fields of the REST answer's response class, as its OpenAPI
 * metadata names and describes them, wrapped as `{"items": [...]}` for a list. It documents the
 * answer; it does not hold a second copy of its types, so a field added to the response class
 * appears here by itself. The SDK checks every answer against it: a list's items are described
 * to clients but not walked one by one, as they cannot differ from what the description says
 * (any value fits each field) and a long list would cost more to walk than to build.
 */
export function toolOutputSchema(response: Type<unknown>, list: boolean): z.ZodObject {
  const fields: Record<string, JsonSchema> = Object.fromEntries(
    Object.entries(documentedProperties(response)).map(([name, { description }]) => [
      name,
      description ? { description } : {},
    ]),
  );
  const title = response.name.replace(/Response$/, '');
  if (!list) return z.looseObject(anyValues(fields)).meta({ title });
  const item = z
    .unknown()
    .meta({ type: 'object', properties: fields, additionalProperties: {}, title });
  return z.object({ items: z.array(item) });
}

/** Each field as a zod value that accepts anything and carries the field's JSON Schema. */
function anyValues(
  fields: Record<string, JsonSchema>,
): Record<string, z.ZodOptional<z.ZodUnknown>> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [
      name,
      z
        .unknown()
        .optional()
        .meta({ ...field }),
    ]),
  );
}
