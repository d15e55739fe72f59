import { Injectable, type ArgumentMetadata, type PipeTransform, type Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, type ValidationError } from 'class-validator';
import { RequestValidationException, type ValidationIssue } from '../errors/validation-issue';
import { rawJsonFields } from '../validation/fields';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../validation/json-depth';
import { nulCharacterIssues } from '../validation/nul-characters';

/** class-validator constraint name -> error `type` of the 422 detail. */
const CONSTRAINT_TYPES: Record<string, string> = {
  isDefined: 'missing',
  isString: 'string_type',
  minLength: 'string_too_short',
  maxLength: 'string_too_long',
  isIn: 'enum',
  isEnum: 'enum',
  isBoolean: 'bool_type',
  isInt: 'int_parsing',
  min: 'greater_than_equal',
  max: 'less_than_equal',
  isArray: 'list_type',
  isObject: 'dict_type',
  isEmail: 'value_error',
  matches: 'string_pattern_mismatch',
  isUuid: 'uuid_parsing',
  arrayMaxSize: 'too_long',
  whitelistValidation: 'extra_forbidden',
};

const LOCATIONS: Record<string, string> = { body: 'body', query: 'query', param: 'path' };

/**
 * Validates request DTOs and turns every failure into the 422 array form
 * (`type`, `loc`, `msg`, `input`). Unknown fields are dropped, not rejected, so a client
 * sending extra fields (a `schedule` on create, say) changes nothing. A U+0000 in any string of
 * a body, a query or a path, whatever reads it (a DTO or not), is a 422 naming where it stands:
 * PostgreSQL stores no text that holds one (docs/api.md, "Errors").
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const location = LOCATIONS[metadata.type];
    if (location !== undefined) {
      const issues = nulCharacterIssues(
        value,
        metadata.data === undefined ? [location] : [location, metadata.data],
      );
      if (issues.length > 0) throw new RequestValidationException(issues);
    }
    const metatype = metadata.metatype;
    if (!metatype || !hasValidationRules(metatype)) return value;
    return this.validatedInstance(value, metatype, metadata.type);
  }

  /**
   * `value` as an instance of `metatype`, which its rules accepted: a request's `type` part
   * (body, query), or an MCP tool's arguments read as that part.
   */
  async validatedInstance<T extends object>(
    value: unknown,
    metatype: Type<T>,
    type: ArgumentMetadata['type'],
  ): Promise<T> {
    const location = LOCATIONS[type] ?? type;
    let source = value;
    if (type === 'body' && (source === undefined || source === null || source === '')) source = {};
    if (typeof source !== 'object' || source === null || Array.isArray(source)) {
      throw new RequestValidationException([
        {
          type: 'model_attributes_type',
          loc: [location],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: source,
        },
      ]);
    }
    // Free-form JSON fields skip the recursive copy and are put back as sent.
    const raw = rawJsonFields(metatype);
    const copied: Record<string, unknown> = { ...(source as Record<string, unknown>) };
    for (const field of raw) delete copied[field];
    const instance = plainToInstance<T, object>(metatype, copied);
    for (const field of raw) {
      if (Object.prototype.hasOwnProperty.call(source, field)) {
        (instance as Record<string, unknown>)[field] = (source as Record<string, unknown>)[field];
      }
    }
    const errors = await validate(instance, {
      whitelist: true,
      forbidUnknownValues: false,
      stopAtFirstError: true,
      validationError: { target: false, value: true },
    });
    if (errors.length > 0) {
      throw new RequestValidationException(collectIssues(errors, [location], source));
    }
    return instance;
  }
}

/** Whether a class has rules, read once per class: the rules are declared when it is loaded. */
const HAS_RULES = new WeakMap<object, boolean>();

function hasValidationRules(metatype: unknown): boolean {
  if (
    typeof metatype !== 'function' ||
    [String, Boolean, Number, Array, Object].includes(metatype as never)
  ) {
    return false;
  }
  let known = HAS_RULES.get(metatype);
  if (known === undefined) {
    known = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false).length > 0;
    HAS_RULES.set(metatype, known);
  }
  return known;
}

export const TOO_DEEP_TO_ECHO = '[nested too deeply to echo]';

function collectIssues(
  errors: ValidationError[],
  parentLoc: (string | number)[],
  parent: unknown,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    const key = /^\d+$/.test(error.property) ? Number(error.property) : error.property;
    const loc = [...parentLoc, key];
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0) {
      const [name, message] = constraints[0];
      const type = CONSTRAINT_TYPES[name] ?? 'value_error';
      const input: unknown = type === 'missing' ? parent : error.value;
      issues.push({
        type,
        loc,
        msg: message,
        input: nestsDeeperThan(input, MAX_JSON_DEPTH) ? TOO_DEEP_TO_ECHO : input,
      });
    }
    if (error.children && error.children.length > 0) {
      issues.push(...collectIssues(error.children, loc, error.value));
    }
  }
  return issues;
}
