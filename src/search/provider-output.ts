/**
 * NUL (which PostgreSQL text and jsonb refuse) and UTF-16 surrogates without their pair (which
 * cannot be encoded as UTF-8). A model reply holding either would make its result impossible to
 * store, so they are removed from everything a provider returns.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this removes
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cleanText(text: string): string {
  return text.replace(UNSTORABLE, '');
}

/** Cleans every string of a JSON-like value, object keys included. */
export function cleanValue<T>(value: T): T {
  if (typeof value === 'string') return cleanText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => cleanValue(item)) as T;
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [cleanText(key), cleanValue(item)]),
    ) as T;
  }
  return value;
}
