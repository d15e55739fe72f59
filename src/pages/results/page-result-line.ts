import type { PageItem, PageRender, PageResult, PageValue } from '../page.types';

/** A page's `final_url` is cut to this many characters, as long as a page's own `url` may be. */
export const MAX_FINAL_URL_CHARS = 2_048;
/**
 * A page's `page_results` entry is at most this many bytes of JSON, as the API shows it
 * (docs/pages.md, "Page results").
 */
export const MAX_PAGE_RESULT_BYTES = 64_000;

/** One entry of an execution's `page_results` (docs/pages.md, "Page results"). */
export interface PageResultLine {
  url: string;
  /** How the page was loaded (docs/pages.md, "Pages that need a browser"). */
  render: PageRender;
  final_url: string | null;
  status: PageResult['status'];
  http_status: number | null;
  title: string | null;
  error: string | null;
  added: string[];
  removed: string[];
  /** Of a page with items: its new items; null for other pages. */
  new_items: PageItem[] | null;
  /** The page's declared values, each read or null; null when it declares none. */
  values: Record<string, PageValue> | null;
  /** Why each null value is null; null when the page declares no values. */
  value_errors: Record<string, string> | null;
  fetched_at: string;
}

export function pageResultLine(result: PageResult): PageResultLine {
  return {
    url: result.url,
    render: result.render,
    final_url: result.finalUrl,
    status: result.status,
    http_status: result.httpStatus,
    title: result.title,
    error: result.error,
    added: result.added,
    removed: result.removed,
    new_items: result.newItems,
    ...valuesLine(result),
    fetched_at: result.fetchedAt.toISOString(),
  };
}

/** A page's values and why some are null, as its `page_results` entry shows them. */
function valuesLine(result: PageResult): Pick<PageResultLine, 'values' | 'value_errors'> {
  if (result.values === undefined) return { values: null, value_errors: null };
  const readings = Object.entries(result.values);
  return {
    values: Object.fromEntries(
      readings.map(([name, reading]) => [name, 'value' in reading ? reading.value : null]),
    ),
    value_errors: Object.fromEntries(
      readings.flatMap(([name, reading]) => ('error' in reading ? [[name, reading.error]] : [])),
    ),
  };
}

/**
 * `result` with as many of its `added` and `removed` lines (and of its new items, each with its
 * added line) as keep its entry within MAX_PAGE_RESULT_BYTES: taken in turn (the first added
 * line, the first removed line, the second added line, ...) until one does not fit, which is
 * dropped with every line after it.
 */
export function withinEntryBound(result: PageResult): PageResult {
  if (jsonBytes(pageResultLine(result)) <= MAX_PAGE_RESULT_BYTES) return result;
  const items = result.newItems;
  const kept: Pick<PageResult, 'added' | 'removed' | 'newItems'> = {
    added: [],
    removed: [],
    newItems: items === null ? null : [],
  };
  // Each line costs its JSON and a comma (one too many per list: a margin of two bytes).
  let bytes = jsonBytes(pageResultLine({ ...result, ...kept }));
  const lines = Math.max(result.added.length, result.removed.length);
  for (let index = 0; index < lines; index++) {
    for (const kind of ['added', 'removed'] as const) {
      const line = result[kind][index];
      if (line === undefined) continue;
      const item = kind === 'added' ? items?.[index] : undefined;
      bytes += jsonBytes(line) + 1 + (item === undefined ? 0 : jsonBytes(item) + 1);
      if (bytes > MAX_PAGE_RESULT_BYTES) return { ...result, ...kept };
      kept[kind].push(line);
      if (item !== undefined) kept.newItems?.push(item);
    }
  }
  return { ...result, ...kept };
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** A page's text as a model reads it: at most `maxChars`, the rest cut with a note. */
export function pageTextForPrompt(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[… ${text.length - maxChars} more characters cut]`;
}
