import { createHash } from 'node:crypto';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { CodedError } from '../common/errors/coded-error';
import { SearchErrorCode } from './search-error-code';

/**
 * `output_schema` (docs/api.md, "Values, evidence, confirmation and retraction"): the values a
 * check extracts on every run. A flat JSON Schema object whose properties are strings, numbers,
 * integers or booleans, so every value is one scalar and a change reads as `field: before → after`.
 */
export const OUTPUT_VALUE_TYPES = ['string', 'number', 'integer', 'boolean'] as const;
export type OutputValueType = (typeof OUTPUT_VALUE_TYPES)[number];
export type OutputValue = string | number | boolean | null;

export interface OutputProperty {
  type: OutputValueType;
  description?: string;
  enum?: Array<string | number | boolean>;
}

export interface OutputSchema {
  type: 'object';
  properties: Record<string, OutputProperty>;
  required?: string[];
}

/** The values of one execution, every declared property present (a missing optional one: null). */
export type OutputValues = Record<string, OutputValue>;

export const MAX_OUTPUT_PROPERTIES = 20;
export const MAX_DESCRIPTION_CHARS = 300;
export const MAX_SCHEMA_BYTES = 8 * 1024;
/** Enough for any real list of choices; the 8 kB bound still holds for the whole schema. */
export const MAX_ENUM_VALUES = 50;
/**
 * A string value longer than this does not fit (values are facts, not pages): it keeps one
 * runaway reply from growing every execution row, payload and chat message.
 */
export const MAX_STRING_VALUE_CHARS = 1_000;
const PROPERTY_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const SCHEMA_KEYS = new Set(['type', 'properties', 'required']);
const PROPERTY_KEYS = new Set(['type', 'description', 'enum']);

export const REPLY_MISMATCH_PREFIX = 'Reply does not match output_schema';

/** A request's `output_schema` that breaks one of its rules; `message` is the reason alone. */
export class OutputSchemaError extends CodedError<SearchErrorCode.INVALID_OUTPUT_SCHEMA> {
  constructor(reason: string) {
    super(reason, SearchErrorCode.INVALID_OUTPUT_SCHEMA);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fitsType(value: unknown, type: OutputValueType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
  }
}

/** Quotes a user's key for a message, cut so a hostile one cannot make the message huge. */
function quoted(key: string): string {
  return JSON.stringify(key.length > 50 ? `${key.slice(0, 50)}…` : key);
}

function checkProperty(name: string, value: unknown): OutputProperty {
  if (!PROPERTY_NAME.test(name)) {
    throw new OutputSchemaError(
      `property name ${quoted(name)} must match ^[a-z][a-z0-9_]{0,39}$ (lower-case letters, digits and _)`,
    );
  }
  if (!isPlainObject(value)) throw new OutputSchemaError(`property "${name}" must be an object`);
  for (const key of Object.keys(value)) {
    if (!PROPERTY_KEYS.has(key)) {
      throw new OutputSchemaError(
        `property "${name}" may hold only type, description and enum, not ${quoted(key)} (no nesting, no $ref)`,
      );
    }
  }
  const type = value.type;
  if (typeof type !== 'string' || !(OUTPUT_VALUE_TYPES as readonly string[]).includes(type)) {
    throw new OutputSchemaError(
      `property "${name}" must have type string, number, integer or boolean`,
    );
  }
  const property: OutputProperty = { type: type as OutputValueType };
  if (value.description !== undefined) {
    if (typeof value.description !== 'string') {
      throw new OutputSchemaError(`description of "${name}" must be a string`);
    }
    if (value.description.length > MAX_DESCRIPTION_CHARS) {
      throw new OutputSchemaError(
        `description of "${name}" must be at most ${MAX_DESCRIPTION_CHARS} characters`,
      );
    }
    property.description = value.description;
  }
  if (value.enum !== undefined) {
    const choices = value.enum;
    if (!Array.isArray(choices) || choices.length === 0 || choices.length > MAX_ENUM_VALUES) {
      throw new OutputSchemaError(
        `enum of "${name}" must be a list of 1 to ${MAX_ENUM_VALUES} values`,
      );
    }
    if (!choices.every((choice) => fitsType(choice, property.type))) {
      throw new OutputSchemaError(`every enum value of "${name}" must be of type ${property.type}`);
    }
    if (new Set(choices).size !== choices.length) {
      throw new OutputSchemaError(`enum of "${name}" must not repeat a value`);
    }
    property.enum = choices as Array<string | number | boolean>;
  }
  return property;
}

/**
 * Checks a request's `output_schema` against its rules and returns it as stored (the keys in
 * their order, nothing else). The shape is checked before anything walks or serialises the
 * value, so no input, however deep, costs more than a look at two levels.
 */
export function validateOutputSchema(input: unknown): OutputSchema {
  if (!isPlainObject(input)) throw new OutputSchemaError('must be a JSON object');
  for (const key of Object.keys(input)) {
    if (!SCHEMA_KEYS.has(key)) {
      throw new OutputSchemaError(
        `only type, properties and required are allowed, not ${quoted(key)}`,
      );
    }
  }
  if (input.type !== 'object') throw new OutputSchemaError('type must be "object"');
  if (!isPlainObject(input.properties)) throw new OutputSchemaError('properties must be an object');
  const names = Object.keys(input.properties);
  if (names.length < 1 || names.length > MAX_OUTPUT_PROPERTIES) {
    throw new OutputSchemaError(`properties must hold 1 to ${MAX_OUTPUT_PROPERTIES} properties`);
  }
  const properties: Record<string, OutputProperty> = {};
  for (const name of names) {
    properties[name] = checkProperty(name, input.properties[name]);
  }
  const schema: OutputSchema = { type: 'object', properties };
  if (input.required !== undefined) {
    const required = input.required;
    if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
      throw new OutputSchemaError('required must be a list of property names');
    }
    for (const name of required) {
      if (!Object.prototype.hasOwnProperty.call(properties, name)) {
        throw new OutputSchemaError(`required names ${quoted(name)}, which is not a property`);
      }
    }
    if (new Set(required).size !== required.length) {
      throw new OutputSchemaError('required must not repeat a name');
    }
    schema.required = required;
  }
  if (Buffer.byteLength(JSON.stringify(schema), 'utf8') > MAX_SCHEMA_BYTES) {
    throw new OutputSchemaError(`must be at most ${MAX_SCHEMA_BYTES} bytes as JSON`);
  }
  return schema;
}

/**
 * The keys of the schema objects already hashed: a check reads its task's schema once and asks
 * for the key of that one object when it validates the reply, plans the outcome and records it.
 */
const schemaKeys = new WeakMap<OutputSchema, string>();

/** Identifies a schema's content: executions checked with the same schema share it. */
export function outputSchemaKey(schema: OutputSchema): string {
  let key = schemaKeys.get(schema);
  if (key === undefined) {
    key = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
    schemaKeys.set(schema, key);
  }
  return key;
}

/** One validator for every schema: Ajv's code generation escapes names and values itself. */
const ajv = new Ajv({ allErrors: false, strict: true });
/** Compiled validators by schema key, least recently used first; bounded so tasks cannot grow it. */
const compiled = new Map<string, ValidateFunction>();
export const MAX_COMPILED_SCHEMAS = 500;

/**
 * The validator of the values a schema describes: declared properties only, strings bounded,
 * every value nullable unless required. Compiled once per schema; Ajv's own cache is emptied
 * right away so ours is the only one, and it is bounded.
 */
export function valuesValidator(schema: OutputSchema): ValidateFunction {
  const key = outputSchemaKey(schema);
  const cached = compiled.get(key);
  if (cached) {
    compiled.delete(key);
    compiled.set(key, cached);
    return cached;
  }
  const required = new Set(schema.required ?? []);
  const valuesSchema = {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(schema.properties),
    properties: Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => {
        const type = required.has(name) ? property.type : [property.type, 'null'];
        const rules: Record<string, unknown> = { type };
        if (property.enum)
          rules.enum = required.has(name) ? property.enum : [...property.enum, null];
        if (property.type === 'string') rules.maxLength = MAX_STRING_VALUE_CHARS;
        return [name, rules];
      }),
    ),
  };
  const validate = ajv.compile(valuesSchema);
  ajv.removeSchema(valuesSchema);
  compiled.set(key, validate);
  if (compiled.size > MAX_COMPILED_SCHEMAS) {
    compiled.delete(compiled.keys().next().value as string);
  }
  return validate;
}

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The lossless coercions (docs/api.md): a number or boolean written as a string (`"5"`, `"true"`),
 * and a number or boolean where a string is declared. Anything else is left for the validator to
 * refuse.
 */
function coerce(value: unknown, type: OutputValueType): unknown {
  if (typeof value === 'string' && (type === 'number' || type === 'integer')) {
    const text = value.trim();
    if (!NUMBER_TEXT.test(text)) return value;
    const number = Number(text);
    return Number.isFinite(number) ? number : value;
  }
  if (typeof value === 'string' && type === 'boolean') {
    const text = value.trim().toLowerCase();
    return text === 'true' ? true : text === 'false' ? false : value;
  }
  if (type === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    return String(value);
  }
  return value;
}

function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'the values are invalid';
  const field = error.instancePath.replace(/^\//, '');
  if (error.keyword === 'required') {
    return `"${String(error.params.missingProperty)}" is required`;
  }
  if (error.keyword === 'type') {
    const types = ([] as unknown[]).concat(error.params.type).filter((type) => type !== 'null');
    const type = String(types[0]);
    return `"${field}" must be ${type === 'integer' ? 'an' : 'a'} ${type}`;
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params.allowedValues as unknown[])
      .filter((value) => value !== null)
      .map((value) => JSON.stringify(value))
      .join(', ');
    return `"${field}" must be one of ${allowed}`;
  }
  return field === '' ? `values ${error.message ?? 'are invalid'}` : `"${field}" ${error.message}`;
}

/** A reply whose values do not fit the schema; the provider turns it into a failed check. */
export class OutputValuesMismatchError extends CodedError<SearchErrorCode.VALUES_MISMATCH> {
  constructor(reason: string) {
    super(`${REPLY_MISMATCH_PREFIX}: ${reason}`, SearchErrorCode.VALUES_MISMATCH);
  }
}

function mismatch(reason: string): OutputValuesMismatchError {
  return new OutputValuesMismatchError(reason);
}

/**
 * The reply's `values` read against the task's schema: declared properties only (others are
 * dropped), coerced where that loses nothing, a missing optional value null. Throws
 * `OutputValuesMismatchError` (`Reply does not match output_schema: ...`) when a value still
 * does not fit.
 */
export function readOutputValues(schema: OutputSchema, raw: unknown): OutputValues {
  if (raw === undefined || raw === null) raw = {};
  if (!isPlainObject(raw)) throw mismatch('"values" must be a JSON object');
  const values: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = Object.prototype.hasOwnProperty.call(raw, name) ? raw[name] : undefined;
    values[name] = value === undefined ? null : coerce(value, property.type);
  }
  const required = new Set(schema.required ?? []);
  for (const name of Object.keys(schema.properties)) {
    if (required.has(name) && values[name] === null) throw mismatch(`"${name}" is required`);
  }
  const validate = valuesValidator(schema);
  if (!validate(values)) throw mismatch(describeError(validate.errors?.[0]));
  return values as OutputValues;
}
