import { scanHtml, type MatchReader, type ScannedHtml } from './html-text';
import { cutText, nestsTooDeep, storable } from './text-bounds';
import { HtmlValueScanner } from '../values/html-values';
import { htmlValues, jsonValues, plainTextValues } from '../values/page-values';
import type { PageValueReadings, PageValueTarget } from '../page.types';
import { decodeText, metaCharset } from '../fetching/page-charset';
import { PageErrorForm, unsupportedContentTypeError } from '../page-errors';
import type { PageBody } from '../fetching/page-fetcher';

/** At most this many characters of a page's text are kept. */
export const MAX_TEXT_CHARS = 100_000;
/** At most this many characters of a page's title are kept. */
export const MAX_TITLE_CHARS = 300;
/** An error answer is read for a bot check from this many bytes at its start, no more. */
export const BOT_CHECK_BYTES = 64_000;
export const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const BOT_CHECK_TITLES = new Set(['Just a moment...', 'Attention Required! | Cloudflare']);
const BOT_CHECK_MARKERS = ['challenge-platform', 'cf-turnstile', 'g-recaptcha', 'h-captcha'];
/** A page holding a bot-check marker is a bot check when its visible text is shorter than this. */
const BOT_CHECK_TEXT_CHARS = 500;

export type PageText =
  | { kind: 'text'; text: string; title: string | null; values?: PageValueReadings }
  | { kind: 'error'; error: string };

/**
 * A page's text as a check reads it (docs/pages.md, "Reading the text"), or why it has none,
 * and its declared `values` read from the same parse (docs/pages.md, "Values read from pages").
 * `selector` and `also` (a list's items, read in that parse too) apply to HTML only.
 */
export function readPageText(
  answer: PageBody,
  selector?: string,
  values?: readonly PageValueTarget[],
  also?: { selector: string; reader: MatchReader },
): PageText {
  const withValues = (text: PageText, read: () => PageValueReadings): PageText =>
    text.kind === 'text' && values !== undefined ? { ...text, values: read() } : text;
  if (HTML_TYPES.has(answer.contentType)) {
    const scanner = values === undefined ? undefined : new HtmlValueScanner(values);
    const { source, page } = readHtml(answer, selector, also, scanner);
    if (isBotCheck(source, page)) return { kind: 'error', error: PageErrorForm.BOT_CHECK };
    const text = selector === undefined ? page.text : page.selected;
    if (text === null) return { kind: 'error', error: PageErrorForm.SELECTOR_MATCHED_NOTHING };
    return withValues(kept(text, page.title), () =>
      htmlValues(values ?? [], (scanner as HtmlValueScanner).finish()),
    );
  }
  if (answer.contentType === 'text/plain') {
    const text = decodeText(answer.body, answer.charset).replace(/\r\n?/g, '\n');
    return withValues(kept(text, null), () => plainTextValues(values ?? [], text));
  }
  if (answer.contentType === 'application/json' || answer.contentType.endsWith('+json')) {
    const json = canonicalJson(decodeText(answer.body, answer.charset));
    if (json === null) return { kind: 'error', error: PageErrorForm.TOO_COMPLEX };
    return withValues(kept(json.text, null), () => jsonValues(values ?? [], json.document));
  }
  return { kind: 'error', error: unsupportedContentTypeError(answer.contentType) };
}

/**
 * Whether an answer (of any status) is a bot check rather than the page, read from its first
 * BOT_CHECK_BYTES: a challenge is small, and an error answer is no page worth reading whole.
 */
export function isBotCheckAnswer(answer: PageBody): boolean {
  if (!HTML_TYPES.has(answer.contentType)) return false;
  const { source, page } = readHtml({ ...answer, body: answer.body.subarray(0, BOT_CHECK_BYTES) });
  return isBotCheck(source, page);
}

/** The charset of the header, else of the document's `meta`, else UTF-8. */
function readHtml(
  answer: PageBody,
  selector?: string,
  also?: { selector: string; reader: MatchReader },
  values?: HtmlValueScanner,
): { source: string; page: ScannedHtml } {
  const source = decodeText(answer.body, answer.charset ?? metaCharset(answer.body));
  return { source, page: scanHtml(source, selector, also, values) };
}

function isBotCheck(source: string, page: ScannedHtml): boolean {
  if (page.title !== null && BOT_CHECK_TITLES.has(page.title)) return true;
  return (
    page.text.length < BOT_CHECK_TEXT_CHARS &&
    BOT_CHECK_MARKERS.some((marker) => source.includes(marker))
  );
}

/**
 * The text and title as kept, cut to their bounds. A cut shares the page's whole string in V8,
 * but only on the reading thread: they cross to the event loop as copies of their own.
 */
export function kept(text: string, title: string | null): PageText {
  if (text.trim() === '') return { kind: 'error', error: PageErrorForm.NO_TEXT };
  return {
    kind: 'text',
    text: storable(cutText(text, MAX_TEXT_CHARS)),
    title: title === null ? null : storable(cutText(title, MAX_TITLE_CHARS)),
  };
}

/**
 * JSON with its keys sorted and a two-space indent, so a reordered object reads the same, and
 * the document parsed (which values are read from); a body that does not parse is kept as it
 * came, with no document; null for JSON nested deeper than MAX_JSON_DEPTH, found before
 * parsing: V8 parses deep JSON in one go that a reading thread's deadline cannot stop (it ends
 * the thread only once the parse is done), and 5 MB can nest 2,500,000 arrays.
 */
function canonicalJson(source: string): { text: string; document?: unknown } | null {
  if (nestsTooDeep(source)) return null;
  let document: unknown;
  try {
    document = JSON.parse(source);
  } catch {
    return { text: source };
  }
  return { text: JSON.stringify(sortedKeys(document), null, 2), document };
}

/** Recursive, so only for JSON no deeper than MAX_JSON_DEPTH. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}
