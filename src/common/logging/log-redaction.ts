import { QueryFailedError } from 'typeorm';
import { statementName } from './statement-name';

/**
 * What keeps secrets out of the log (docs/logging.md): credentials, API keys, webhook secrets,
 * chat hook URLs, bot and ntfy tokens, email codes and email addresses.
 *
 * Two layers: pino's `redact` censors the values of secret-named fields in any logged object
 * (`LogRedaction.paths`), and `LogRedaction.scrub` masks the known shapes of secrets in free text
 * (messages, error messages and stacks), for the text that a library or a server puts in an
 * error. The names and shapes that belong to a search provider or a channel come from its
 * definition: the composition root hands them in (`LogSecrets`), as this layer imports no feature.
 */

/** One shape of secret in free text, and how it is masked. */
export interface SecretShape {
  /**
   * Global (`/.../g`) and starting at a word boundary (`\b`) or after a look-behind (`(?<!...)`):
   * a shape that starts with a run of characters must start only where such a run starts, so a
   * failed match never rescans a run from each of its characters and masking stays linear in the
   * text's length, whatever the text (docs/logging.md, "Redaction").
   */
  readonly pattern: RegExp;
  /** What a match becomes (`$1` names the pattern's first group), or a function of the match. */
  readonly mask: string | ((match: string) => string);
  /** A cheap look, case-insensitive, that every match passes: text that fails every clue is left alone. */
  readonly clue: RegExp;
}

/** The secret field names and text shapes a search provider or a channel brings. */
export interface LogSecrets {
  readonly fields?: readonly string[];
  readonly shapes?: readonly SecretShape[];
}

/**
 * Field names whose values are never logged, whatever the registries add, at the top of a logged
 * object or one level down (`{ config: { secret } }`). Request and response bodies and headers
 * are censored whole: they carry credentials, email codes and addresses.
 */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'headers',
  'body',
  'password',
  'secret',
  'token',
  'api_key',
  'apiKey',
  'key',
  'url',
  'webhook_url',
  'notifications',
];

/** Fields that hold a config, a request or a record: their secret fields are censored too. */
const CONTAINERS = ['config', 'notification', 'options', 'request', 'response', 'data', 'err'];

export const CENSORED = '[Redacted]';

const OWN_TEXT = Symbol('own text');

/**
 * Marks a line that the service composes from its own configuration and words, with no secret
 * in it by construction (the start-up line): its text is logged as it is, so an example command
 * in it can be pasted. Fields named like secrets are still censored by name.
 */
export function ownText<T extends object>(fields: T): T {
  return Object.defineProperty(fields, OWN_TEXT, { value: true });
}

/** Credentials in a URL (`smtp://user:password@host`), masked before the address shape sees an `@`. */
const URL_CREDENTIALS: SecretShape = {
  pattern: /(?<![a-z0-9+.-])([a-z0-9+.-]*:\/\/)[^\s/@"'<>]+@/gi,
  mask: '$1[Redacted]@',
  clue: /@/,
};

/** The shapes of the service's own secrets, masked after the credentials in URLs. */
const OWN_SHAPES: SecretShape[] = [
  // The service's API keys.
  { pattern: /\bsk_[A-Za-z0-9]{4,}/g, mask: 'sk_[Redacted]', clue: /sk_/ },
  { pattern: /\bBearer\s+[^\s"',;]+/gi, mask: 'Bearer [Redacted]', clue: /bearer/ },
  // A JWT may start inside a run (after a `-`): the run's three dotted parts are found first.
  {
    pattern: /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
    mask: maskJwt,
    clue: /eyJ/,
  },
];

/** Email addresses, masked last: every other shape has had its chance at an `@`. */
const EMAIL_ADDRESS: SecretShape = {
  pattern: /(?<![A-Za-z0-9._+-])[A-Za-z0-9._+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/gi,
  mask: '[email]',
  clue: /@|%40/,
};

/** `header.payload.signature` from the JWT's start (`eyJ` at a word's start) to its end. */
function maskJwt(parts: string): string {
  const start = /(?:^|-)eyJ/.exec(parts);
  if (start === null) return parts;
  return `${parts.slice(0, start.index + start[0].length - 3)}[Redacted]`;
}

/** Refuses a shape that would mask only its first match or could rescan a run (see `SecretShape`). */
function checkedShape(shape: SecretShape): SecretShape {
  const { pattern } = shape;
  if (!pattern.global || !/^(\\b|\(\?<!)/.test(pattern.source)) {
    throw new Error(
      `Secret shape ${String(pattern)} must be global and start with \\b or a look-behind`,
    );
  }
  return shape;
}

export interface LoggedError {
  type: string;
  message: string;
  code?: string | number;
  /** A failed SQL statement's name (`statementName`). */
  statement?: string;
  stack?: string;
}

/**
 * The redaction of one logger: the service's own secret names and shapes with those of the
 * registered providers and channels.
 */
export class LogRedaction {
  /**
   * pino's `redact` paths: the secret fields at the top and inside the usual containers. No path
   * starts with a wildcard: one would run the censor over every field of every line (6 µs a
   * line, measured), so other objects are censored one level down by `scrubLogArguments`.
   */
  readonly paths: string[];
  private readonly fields: Set<string>;
  private readonly shapes: SecretShape[];
  /** A cheap first look: text without any shape's clue holds none of the shapes. */
  private readonly maybeSecret: RegExp;

  constructor(secrets: readonly LogSecrets[] = []) {
    this.fields = new Set([...SECRET_FIELDS, ...secrets.flatMap((owner) => owner.fields ?? [])]);
    this.paths = [
      ...this.fields,
      ...CONTAINERS.flatMap((container) =>
        [...this.fields].map((field) => `${container}.${field}`),
      ),
    ];
    this.shapes = [
      URL_CREDENTIALS,
      ...OWN_SHAPES,
      ...secrets.flatMap((owner) => owner.shapes ?? []),
      EMAIL_ADDRESS,
    ].map(checkedShape);
    this.maybeSecret = new RegExp(this.shapes.map((shape) => shape.clue.source).join('|'), 'i');
  }

  /** The text with every known shape of secret masked. */
  scrub(text: string): string {
    if (!this.maybeSecret.test(text)) return text;
    let scrubbed = text;
    for (const { pattern, mask } of this.shapes)
      scrubbed =
        typeof mask === 'string'
          ? scrubbed.replace(pattern, mask)
          : scrubbed.replace(pattern, mask);
    return scrubbed;
  }

  /**
   * An error as logged: its class, message, code and stack, scrubbed, and nothing else. Other
   * fields stay out on purpose: an HTTP client's error holds the request (URL, headers), a
   * database error the query's parameters (notification configs).
   */
  serializeError(error: unknown): LoggedError {
    if (!(error instanceof Error))
      return { type: typeof error, message: this.scrub(String(error)) };
    if (error instanceof QueryFailedError) return failedStatement(error);
    const code = (error as { code?: unknown }).code;
    return {
      type: error.name,
      message: this.scrub(error.message),
      ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
      ...(error.stack ? { stack: this.scrub(error.stack) } : {}),
    };
  }

  /**
   * pino's `logMethod` hook: scrubs the message and the top-level text fields of the logged
   * object, censors secret fields one level down in the other objects it holds, and serializes
   * an error found under another key than `err` as `err` would be.
   */
  scrubLogArguments(args: unknown[]): unknown[] {
    // Without a message pino takes the error's own: the scrubbed one is given instead.
    if (args.length === 1) {
      const first = args[0] as { err?: unknown } | null;
      const error = first instanceof Error ? first : first?.err;
      if (error instanceof Error)
        args.push(
          error instanceof QueryFailedError ? failedStatement(error).message : error.message,
        );
    }
    for (let index = 0; index < args.length; index++) {
      const arg = args[index];
      if (typeof arg === 'string') {
        args[index] = this.scrub(arg);
      } else if (
        index === 0 &&
        typeof arg === 'object' &&
        arg !== null &&
        !(arg instanceof Error) &&
        !(OWN_TEXT in arg)
      ) {
        args[0] = this.scrubFields(arg as Record<string, unknown>);
      }
    }
    return args;
  }

  private scrubFields(fields: Record<string, unknown>): Record<string, unknown> {
    let copy: Record<string, unknown> | null = null;
    for (const key of Object.keys(fields)) {
      const value = fields[key];
      let replaced: unknown = value;
      if (typeof value === 'string') replaced = this.scrub(value);
      else if (value instanceof Error)
        replaced = key === 'err' ? value : this.serializeError(value);
      else if (isPlainObject(value)) replaced = this.censorFields(value);
      if (replaced !== value) {
        copy ??= { ...fields };
        copy[key] = replaced;
      }
    }
    return copy ?? fields;
  }

  private censorFields(fields: Record<string, unknown>): Record<string, unknown> {
    let copy: Record<string, unknown> | null = null;
    for (const key of Object.keys(fields)) {
      if (!this.fields.has(key) || fields[key] === undefined) continue;
      copy ??= { ...fields };
      copy[key] = CENSORED;
    }
    return copy ?? fields;
  }
}

/**
 * A failed SQL statement as logged: its SQLSTATE (`code`), its name and where it was run, and
 * nothing of what the database said: besides the statement's parameters, its message may quote a
 * value (`invalid input syntax for type uuid: "..."`).
 */
function failedStatement(error: Pick<QueryFailedError, 'name' | 'query' | 'stack'>): LoggedError {
  const code = (error as { code?: unknown }).code;
  const statement = statementName(error.query);
  const message = `${statement} failed`;
  const frames = error.stack?.indexOf('\n    at ') ?? -1;
  return {
    type: error.name,
    message,
    ...(typeof code === 'string' ? { code } : {}),
    statement,
    ...(frames === -1 ? {} : { stack: `${error.name}: ${message}${error.stack?.slice(frames)}` }),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
