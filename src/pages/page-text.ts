import { scanHtml, type ScannedHtml } from './html-text';
import { decodeText, metaCharset } from './page-charset';
import { PageErrorForm, unsupportedContentTypeError } from './page-errors';
import type { PageBody } from './page-fetcher';

/** At most this many characters of a page's text are kept. */
export const MAX_TEXT_CHARS = 100_000;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const BOT_CHECK_TITLES = new Set(['Just a moment...', 'Attention Required! | Cloudflare']);
const BOT_CHECK_MARKERS = ['challenge-platform', 'cf-turnstile', 'g-recaptcha', 'h-captcha'];
/** A page holding a bot-check marker is a bot check when its visible text is shorter than this. */
const BOT_CHECK_TEXT_CHARS = 500;

export type PageText =
  { kind: 'text'; text: string; title: string | null } | { kind: 'error'; error: string };

/**
 * A page's text as a check reads it (docs/pages.md, "Reading the text"), or why it has none.
 * `selector` applies to HTML only.
 */
export function readPageText(answer: PageBody, selector?: string): PageText {
  if (HTML_TYPES.has(answer.contentType)) {
    const { source, page } = readHtml(answer, selector);
    if (isBotCheck(source, page)) return { kind: 'error', error: PageErrorForm.BOT_CHECK };
    const text = selector === undefined ? page.text : page.selected;
    if (text === null) return { kind: 'error', error: PageErrorForm.SELECTOR_MATCHED_NOTHING };
    return kept(text, page.title);
  }
  if (answer.contentType === 'text/plain') {
    return kept(decodeText(answer.body, answer.charset).replace(/\r\n?/g, '\n'), null);
  }
  if (answer.contentType === 'application/json' || answer.contentType.endsWith('+json')) {
    return kept(canonicalJson(decodeText(answer.body, answer.charset)), null);
  }
  return { kind: 'error', error: unsupportedContentTypeError(answer.contentType) };
}

/** Whether an answer (of any status) is a bot check rather than the page. */
export function isBotCheckAnswer(answer: PageBody): boolean {
  if (!HTML_TYPES.has(answer.contentType)) return false;
  const { source, page } = readHtml(answer);
  return isBotCheck(source, page);
}

/** The charset of the header, else of the document's `meta`, else UTF-8. */
function readHtml(answer: PageBody, selector?: string): { source: string; page: ScannedHtml } {
  const source = decodeText(answer.body, answer.charset ?? metaCharset(answer.body));
  return { source, page: scanHtml(source, selector) };
}

function isBotCheck(source: string, page: ScannedHtml): boolean {
  if (page.title !== null && BOT_CHECK_TITLES.has(page.title)) return true;
  return (
    page.text.length < BOT_CHECK_TEXT_CHARS &&
    BOT_CHECK_MARKERS.some((marker) => source.includes(marker))
  );
}

function kept(text: string, title: string | null): PageText {
  if (text.trim() === '') return { kind: 'error', error: PageErrorForm.NO_TEXT };
  return {
    kind: 'text',
    text: detached(cut(text)),
    title: title === null ? null : detached(title),
  };
}

/**
 * A copy of `text` that keeps nothing else alive. V8 cuts and trims a string by reference to the
 * one it came from, so the first 100,000 characters of a page would hold the whole page's text,
 * and a title its whole source, for as long as the check keeps them.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

/** At most MAX_TEXT_CHARS, never ending in half a surrogate pair. */
function cut(text: string): string {
  if (text.length <= MAX_TEXT_CHARS) return text;
  const end = /[\uD800-\uDBFF]/.test(text[MAX_TEXT_CHARS - 1])
    ? MAX_TEXT_CHARS - 1
    : MAX_TEXT_CHARS;
  return text.slice(0, end);
}

/**
 * JSON with its keys sorted and a two-space indent, so a reordered object reads the same; a
 * body that does not parse is kept as it came.
 */
function canonicalJson(source: string): string {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return source;
  }
  return JSON.stringify(sortedKeys(value), null, 2);
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}
