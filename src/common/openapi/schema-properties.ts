import { ApiProperty } from '@nestjs/swagger';

/**
 * Property decorators for the formats every response shares, so each response class states a
 * field's kind once and the document spells it the same way everywhere.
 */
interface PropertyOptions {
  nullable?: boolean;
  description?: string;
}

export const UuidProperty = (options: PropertyOptions = {}): PropertyDecorator =>
  ApiProperty({ type: String, format: 'uuid', ...options });

/** An ISO 8601 UTC timestamp. */
export const TimestampProperty = (options: PropertyOptions = {}): PropertyDecorator =>
  ApiProperty({ type: String, format: 'date-time', ...options });

/** A JSON object whose keys the service does not fix (provider output, agent state). */
export const JsonObjectProperty = (options: PropertyOptions = {}): PropertyDecorator =>
  ApiProperty({ type: 'object', additionalProperties: true, ...options });
