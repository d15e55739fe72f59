import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

/**
 * Field decorators whose messages follow the 422 form of docs/api.md, "Errors". Each bundles the
 * checks of one kind of field so DTOs read as a list of rules, not of decorators.
 */
const STRING_MESSAGE = 'Input should be a valid string';

function composed(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorator) => decorator(target, key));
}

function lengthDecorators(min?: number, max?: number): PropertyDecorator[] {
  const decorators: PropertyDecorator[] = [];
  if (min !== undefined) {
    const unit = min === 1 ? 'character' : 'characters';
    decorators.push(MinLength(min, { message: `String should have at least ${min} ${unit}` }));
  }
  if (max !== undefined) {
    const unit = max === 1 ? 'character' : 'characters';
    decorators.push(MaxLength(max, { message: `String should have at most ${max} ${unit}` }));
  }
  return decorators;
}

export interface TextOptions {
  min?: number;
  max?: number;
}

export function RequiredText(options: TextOptions = {}): PropertyDecorator {
  return composed(
    IsDefined({ message: 'Field required' }),
    IsString({ message: STRING_MESSAGE }),
    ...lengthDecorators(options.min, options.max),
  );
}

export function OptionalText(options: TextOptions = {}): PropertyDecorator {
  return composed(
    IsOptional(),
    IsString({ message: STRING_MESSAGE }),
    ...lengthDecorators(options.min, options.max),
  );
}

function enumMessage(values: readonly string[]): string {
  const quoted = values.map((value) => `'${value}'`);
  const list =
    quoted.length > 1
      ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`
      : quoted[0];
  return `Input should be ${list}`;
}

export function OptionalEnum(values: readonly string[]): PropertyDecorator {
  return composed(IsOptional(), IsIn([...values], { message: enumMessage(values) }));
}

export function RequiredEnum(values: readonly string[]): PropertyDecorator {
  return composed(
    IsDefined({ message: 'Field required' }),
    IsIn([...values], { message: enumMessage(values) }),
  );
}

export function OptionalBoolean(): PropertyDecorator {
  return composed(IsOptional(), IsBoolean({ message: 'Input should be a valid boolean' }));
}

export function RequiredBoolean(): PropertyDecorator {
  return composed(
    IsDefined({ message: 'Field required' }),
    IsBoolean({ message: 'Input should be a valid boolean' }),
  );
}

/** Boolean in a query string: `true/false/1/0` (anything else is a 422). */
export function QueryBoolean(): PropertyDecorator {
  return composed(
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string') return value;
      const text = value.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(text)) return true;
      if (['false', '0', 'no', 'off'].includes(text)) return false;
      return value;
    }),
    OptionalBoolean(),
  );
}

/** Integer in a query string, converted from text, with inclusive bounds. */
export function QueryInt(options: { min: number; max?: number }): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    Transform(({ value }: { value: unknown }) => {
      if (value === undefined || value === '') return undefined;
      if (typeof value !== 'string') return value;
      const text = value.trim();
      return /^-?\d+$/.test(text) ? Number(text) : value;
    }),
    IsOptional(),
    IsInt({ message: 'Input should be a valid integer, unable to parse string as an integer' }),
    Min(options.min, { message: `Input should be greater than or equal to ${options.min}` }),
  ];
  if (options.max !== undefined) {
    decorators.push(
      Max(options.max, { message: `Input should be less than or equal to ${options.max}` }),
    );
  }
  return composed(...decorators);
}

const RAW_JSON_FIELDS = Symbol('rawJsonFields');

/**
 * An optional field whose value is any JSON the service checks itself (a schema, a rule, a list
 * of configs): it reaches the DTO as sent, without class-transformer's copy, which walks the
 * value recursively and so would overflow the stack on a deeply nested body (a 500, not a 400).
 */
export function OptionalRawJson(): PropertyDecorator {
  return composed(IsOptional(), (target, key) => {
    const fields = rawJsonFields(target.constructor);
    Reflect.defineMetadata(RAW_JSON_FIELDS, [...fields, String(key)], target.constructor);
  });
}

/** The fields of a DTO class marked `OptionalRawJson`. */
export function rawJsonFields(metatype: object): string[] {
  return (Reflect.getMetadata(RAW_JSON_FIELDS, metatype) as string[] | undefined) ?? [];
}
