import { QueryFailedError } from 'typeorm';

/** SQLSTATEs of a lost lock conflict: the transaction can run again and may then succeed. */
export const DEADLOCK_DETECTED = '40P01';
export const SERIALIZATION_FAILURE = '40001';

/**
 * The SQLSTATE behind an error, whatever wrapped it: TypeORM's QueryFailedError
 * (`driverError.code`), a pg error (`code`), or an error that names its `cause`
 * (JobQueueService's). Undefined when none carries one.
 */
export function sqlStateOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as {
      code?: unknown;
      driverError?: { code?: unknown };
      cause?: unknown;
    };
    if (typeof candidate.driverError?.code === 'string') return candidate.driverError.code;
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code))
      return candidate.code;
    current = candidate.cause;
  }
  return undefined;
}

/** A deadlock or a serialization failure: retrying the whole transaction is safe and useful. */
export function isLockConflict(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code === DEADLOCK_DETECTED || code === SERIALIZATION_FAILURE;
}

/** The statement broke the unique index (or constraint) named `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && driverError.constraint === constraint;
}

/** Node's socket error codes of a server that cannot be reached or dropped the connection. */
const CONNECTION_ERRNO_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that say the server is not serving this connection: class 08 (connection exception),
 * 57P01 to 57P03 (administrator or crash shutdown, cannot connect now), 53300 (too many
 * connections).
 */
function isConnectionSqlState(code: string): boolean {
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code);
}

/**
 * What pg and its pool say when no connection could be had or one was lost, without a code:
 * a pool timeout, a connection ended under a query, a database refusing connections (55000
 * `database "x" is not currently accepting connections`, a code shared with ordinary errors).
 */
const CONNECTION_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /is not currently accepting connections/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /Client has encountered a connection error/i,
];

/**
 * The database could not be reached or dropped the connection: the work may succeed once it answers
 * again, and the client is told 503 (docs/architecture.md, "A database outage is waited out").
 * Looks through TypeORM's `driverError` and any `cause` chain (queue errors wrap theirs).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const candidate = current as {
      code?: unknown;
      errno?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
    };
    const code = typeof candidate.code === 'string' ? candidate.code : undefined;
    if (code !== undefined) {
      if (CONNECTION_ERRNO_CODES.has(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code) && isConnectionSqlState(code)) return true;
    }
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
    if (candidate.driverError && isDatabaseUnavailable(candidate.driverError)) return true;
    current = candidate.cause;
  }
  return false;
}
