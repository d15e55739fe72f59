const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * The two ways a duration is written. `environment` (variables such as `SCHEDULER_MIN_INTERVAL`):
 * `500ms`, `1.5h`, a bare number of seconds, any case, blanks around. `api` (values a client sends,
 * such as `alert_policy.cooldown`): a whole positive number and one of `s`, `m`, `h`, `d`, lower
 * case, nothing else (docs/attention.md, "Durations").
 */
const FORMATS = {
  environment: /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i,
  api: /^([1-9]\d{0,8})(s|m|h|d)$/,
} as const;
export type DurationFormat = keyof typeof FORMATS;

/** Parses a duration (`15m`, `2h`, `7d`, ...) into milliseconds, or null when it is not one. */
export function parseDuration(text: string, format: DurationFormat = 'environment'): number | null {
  const match = FORMATS[format].exec(text);
  if (!match) return null;
  const unit = (match[2] ?? 's').toLowerCase();
  return Math.round(Number(match[1]) * UNIT_MS[unit]);
}

/** Writes milliseconds in the largest unit that divides them (`900000` → `15m`). */
export function formatDuration(ms: number): string {
  const unit = ['d', 'h', 'm', 's'].find((name) => ms > 0 && ms % UNIT_MS[name] === 0) ?? 'ms';
  return `${ms / UNIT_MS[unit]}${unit}`;
}

/** Parses a comma-separated list of durations such as `5s,5m,30m`. */
export function parseDurationList(text: string): number[] | null {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length === 0) return null;
  const values = parts.map((part) => parseDuration(part));
  return values.every((value): value is number => value !== null) ? values : null;
}
