/** Dates in the reader's locale; money in US dollars. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

export function formatUsd(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `$${value.toFixed(4)}`;
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A URL the console may turn into a link: `http:` or `https:` only, never `javascript:`. */
export function safeHttpUrl(uri: string): string | null {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** `YYYY-MM` as the month's name and year ("November 2026"). */
export function formatMonth(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** This UTC month as `YYYY-MM`, the month the usage API counts in by default. */
export function thisUtcMonth(): string {
  return new Date().toISOString().slice(0, 7);
}
