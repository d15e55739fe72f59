/**
 * What keeps secrets out of the log (docs/logging.md): credentials, API keys, webhook secrets,
 * chat hook URLs, bot and ntfy tokens, email codes and email addresses.
 *
 * Two layers: pino's `redact` censors the values of secret-named fields in any logged object
 * (`REDACT_PATHS`), and `scrubSecrets` masks the known shapes of secrets in free text (messages,
 * error messages and stacks), for the text that a library or a server puts in an error.
 */

/**
 * Field names whose values are never logged, at the top of a logged object or one level down
 * (`{ config: { secret } }`). Request and response bodies and headers are censored whole:
 * they carry credentials, email codes and addresses.
 */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'headers',
  'body',
  'password',
  'secret',
  'token',
  'bot_token',
  'api_key',
  'apiKey',
  'key',
  'url',
  'webhook_url',
  'smtpUrl',
  'notifications',
];
const SECRET_FIELD_SET = new Set(SECRET_FIELDS);

/** Fields that hold a config, a request or a record: their secret fields are censored too. */
const CONTAINERS = ['config', 'notification', 'options', 'request', 'response', 'data', 'err'];

/**
 * pino's `redact` paths: the secret fields at the top and inside the usual containers. No path
 * starts with a wildcard: one would run the censor over every field of every line (6 µs a
 * line, measured), so other objects are censored one level down by `scrubLogArguments`.
 */
export const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...CONTAINERS.flatMap((container) => SECRET_FIELDS.map((field) => `${container}.${field}`)),
];

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

/**
 * The known shapes of secrets in free text. Every shape that starts with a run of characters
 * starts only where such a run starts (the look-behind), so a failed match never rescans a run
 * from each of its characters: masking takes time linear in the text's length, whatever the
 * text (docs/logging.md, "Redaction").
 */
const SECRET_SHAPES: Array<[RegExp, string | ((match: string) => string)]> = [
  // Credentials in a URL (`smtp://user:password@host`) before the email rule sees an `@`.
  [/(?<![a-z0-9+.-])([a-z0-9+.-]*:\/\/)[^\s/@"'<>]+@/gi, '$1[Redacted]@'],
  [/\bsk_[A-Za-z0-9]{4,}/g, 'sk_[Redacted]'],
  [/\bwhsec_[A-Za-z0-9+/=]{4,}/g, 'whsec_[Redacted]'],
  [/\btk_[A-Za-z0-9_-]{4,}/g, 'tk_[Redacted]'],
  // Telegram bot tokens (`<bot id>:<secret>`), in a Bot API path or alone.
  [/\b(bot)?\d{1,20}:[A-Za-z0-9_-]{20,}/g, '[Redacted]'],
  [/\bBearer\s+[^\s"',;]+/gi, 'Bearer [Redacted]'],
  // A JWT may start inside a run (after a `-`): the run's three dotted parts are found first.
  [/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, maskJwt],
  [/\b(hooks\.slack\.com\/)[^\s"'<>]+/gi, '$1[Redacted]'],
  [/\b(discord(?:app)?\.com\/api\/webhooks\/)[^\s"'<>]+/gi, '$1[Redacted]'],
  [/(?<![A-Za-z0-9._+-])[A-Za-z0-9._+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/gi, '[email]'],
];

/** `header.payload.signature` from the JWT's start (`eyJ` at a word's start) to its end. */
function maskJwt(parts: string): string {
  const start = /(?:^|-)eyJ/.exec(parts);
  if (start === null) return parts;
  return `${parts.slice(0, start.index + start[0].length - 3)}[Redacted]`;
}

/** A cheap first look: text without any of these holds none of the shapes above. */
const MAYBE_SECRET = /sk_|whsec_|tk_|\d:[A-Za-z0-9_-]{20}|bearer|eyJ|hooks\.slack|discord|@|%40/i;

/** The text with every known shape of secret masked. */
export function scrubSecrets(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  let scrubbed = text;
  for (const [shape, replacement] of SECRET_SHAPES)
    scrubbed =
      typeof replacement === 'string'
        ? scrubbed.replace(shape, replacement)
        : scrubbed.replace(shape, replacement);
  return scrubbed;
}

export interface LoggedError {
  type: string;
  message: string;
  code?: string | number;
  stack?: string;
}

/**
 * An error as logged: its class, message, code and stack, scrubbed, and nothing else. Other
 * fields stay out on purpose: an HTTP client's error holds the request (URL, headers), a
 * database error the query's parameters (notification configs).
 */
export function serializeError(error: unknown): LoggedError {
  if (!(error instanceof Error))
    return { type: typeof error, message: scrubSecrets(String(error)) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: scrubSecrets(error.message),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(error.stack ? { stack: scrubSecrets(error.stack) } : {}),
  };
}

/**
 * pino's `logMethod` hook: scrubs the message and the top-level text fields of the logged
 * object, censors secret fields one level down in the other objects it holds, and serializes
 * an error found under another key than `err` as `err` would be.
 */
export function scrubLogArguments(args: unknown[]): unknown[] {
  // Without a message pino takes the error's own: the scrubbed one is given instead.
  if (args.length === 1) {
    const first = args[0] as { err?: unknown } | null;
    const error = first instanceof Error ? first : first?.err;
    if (error instanceof Error) args.push(error.message);
  }
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (typeof arg === 'string') {
      args[index] = scrubSecrets(arg);
    } else if (
      index === 0 &&
      typeof arg === 'object' &&
      arg !== null &&
      !(arg instanceof Error) &&
      !(OWN_TEXT in arg)
    ) {
      args[0] = scrubFields(arg as Record<string, unknown>);
    }
  }
  return args;
}

function scrubFields(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    let replaced: unknown = value;
    if (typeof value === 'string') replaced = scrubSecrets(value);
    else if (value instanceof Error) replaced = key === 'err' ? value : serializeError(value);
    else if (isPlainObject(value)) replaced = censorFields(value);
    if (replaced !== value) {
      copy ??= { ...fields };
      copy[key] = replaced;
    }
  }
  return copy ?? fields;
}

function censorFields(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(fields)) {
    if (!SECRET_FIELD_SET.has(key) || fields[key] === undefined) continue;
    copy ??= { ...fields };
    copy[key] = CENSORED;
  }
  return copy ?? fields;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
