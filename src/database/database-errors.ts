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
