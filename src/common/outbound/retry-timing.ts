/**
 * `Retry-After` as delay-seconds or an HTTP date (RFC 9110, 10.2.3), in milliseconds from `now`
 * (never negative); null when missing or unreadable. Callers cap it.
 */
export function parseRetryAfterMs(
  value: string | undefined,
  now: number = Date.now(),
): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export interface BackoffOptions {
  /** First delay; each retry doubles it. */
  baseMs: number;
  maxMs: number;
}

/**
 * Exponential backoff with equal jitter (half the step fixed, half random) for retry number
 * `attempt` (1 for the first retry), never shorter than what the server asked for, capped.
 */
export function backoffDelayMs(
  attempt: number,
  { baseMs, maxMs }: BackoffOptions,
  random: () => number,
  requested: { ms: number; capMs: number } | null = null,
): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  const jittered = Math.round(exponential / 2 + (random() * exponential) / 2);
  if (requested === null) return jittered;
  return Math.max(jittered, Math.min(requested.ms, requested.capMs));
}
