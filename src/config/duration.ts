const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** Parses `500ms`, `5s`, `15m`, `2h`, `7d` (or a bare number of seconds) into milliseconds. */
export function parseDuration(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(text);
  if (!match) return null;
  const unit = (match[2] ?? 's').toLowerCase();
  return Math.round(Number(match[1]) * UNIT_MS[unit]);
}

/** Parses a comma-separated list of durations such as `5s,5m,30m`. */
export function parseDurationList(text: string): number[] | null {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length === 0) return null;
  const values = parts.map(parseDuration);
  return values.every((value): value is number => value !== null) ? values : null;
}
