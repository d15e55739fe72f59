import type { Type } from '@nestjs/common';
import { generateSchema, type SchemaObject } from '@nestjs/swagger';

/**
 * The OpenAPI schema of each property `@ApiProperty()` documents on a class, by name in the
 * order the class declares them, as `@nestjs/swagger` builds it for the document. A property
 * that is a bare reference to another class's schema says nothing of itself: it reads as `{}`.
 */
export function documentedProperties(type: Type<unknown>): Record<string, SchemaObject> {
  const { properties = {} } = generateSchema(type).schema;
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      '$ref' in property ? {} : property,
    ]),
  );
}
