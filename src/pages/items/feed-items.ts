import { DetectError, MalformedError, ParseError, parseFeed, type AnyFeed } from 'feedsmith';
import { decodeText } from '../fetching/page-charset';
import type { PageBody } from '../fetching/page-fetcher';
import { scanHtml } from '../reading/html-text';
import { MAX_ITEMS, readItem, type ReadItem } from './page-items';

/** Types that are feeds whatever they hold. */
const FEED_TYPES = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/feed+json',
]);
/** Types that are feeds when their root is one of FEED_ROOTS. */
const XML_TYPES = new Set(['application/xml', 'text/xml']);
const FEED_ROOTS = new Set(['rss', 'rdf:rdf', 'feed']);
/** An XML declaration's encoding, looked for in the first 1,024 bytes as a `meta` charset is. */
const XML_ENCODING = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/;
/** Atom text types that hold markup, read as HTML's visible text. */
const MARKUP_TEXT = new Set(['html', 'xhtml']);

/** A feed's source, decoded, when the answer is one (docs/pages.md, "Items and feeds"). */
export function feedSource(answer: PageBody): string | null {
  if (!FEED_TYPES.has(answer.contentType) && !XML_TYPES.has(answer.contentType)) return null;
  const head = answer.body.subarray(0, 1024).toString('latin1');
  const source = decodeText(answer.body, answer.charset ?? XML_ENCODING.exec(head)?.[1]);
  if (FEED_TYPES.has(answer.contentType)) return source;
  const root = xmlRoot(source);
  return root !== null && FEED_ROOTS.has(root.toLowerCase()) ? source : null;
}

/**
 * The name of an XML document's root element: the first start tag after the declaration,
 * processing instructions, comments and the doctype; null when there is none. One pass, no
 * parse: a type that is not a feed is never handed to the feed parser.
 */
export function xmlRoot(source: string): string | null {
  let at = 0;
  for (;;) {
    at = source.indexOf('<', at);
    if (at < 0) return null;
    if (source.startsWith('<?', at)) {
      at = source.indexOf('?>', at);
    } else if (source.startsWith('<!--', at)) {
      at = source.indexOf('-->', at);
    } else if (source.startsWith('<!', at)) {
      at = doctypeEnd(source, at);
    } else {
      return /^<([A-Za-z_][\w:.-]*)/.exec(source.slice(at, at + 256))?.[1] ?? null;
    }
    if (at < 0) return null;
    at += 1;
  }
}

/** Where a doctype that starts at `at` ends, its internal subset (`[...]`) skipped. */
function doctypeEnd(source: string, at: number): number {
  const close = source.indexOf('>', at);
  const subset = source.indexOf('[', at);
  if (subset < 0 || close < subset) return close;
  const subsetEnd = source.indexOf(']', subset);
  return subsetEnd < 0 ? -1 : source.indexOf('>', subsetEnd);
}

/** A feed as read: its title and its entries as items. */
export interface ReadFeed {
  title: string | null;
  items: ReadItem[];
}

/**
 * The entries of a feed (RSS 2.0, RSS 1.0, Atom, JSON Feed 1.x) as items, read by a feed parser
 * (feedsmith: custom entities are never expanded, and at most MAX_ITEMS entries are read), their
 * links resolved against `base`; null for a document that does not parse as a feed. A JSON Feed
 * is parsed by V8 first, so the caller bounds its nesting.
 */
export function readFeed(source: string, contentType: string, base: string): ReadFeed | null {
  let parsed: AnyFeed;
  try {
    const value: unknown = contentType === 'application/feed+json' ? JSON.parse(source) : source;
    parsed = parseFeed(value, { maxItems: MAX_ITEMS });
  } catch (error) {
    if (isNotAFeed(error)) return null;
    throw error;
  }
  const items = entries(parsed)
    .slice(0, MAX_ITEMS)
    .flatMap((entry) => {
      const item = readItem(oneLine(entry.title), entry.link ?? null, base, entry.key);
      return item === null ? [] : [item];
    });
  return { title: oneLine(feedTitle(parsed)) || null, items };
}

function feedTitle(parsed: AnyFeed): string {
  if (parsed.format === 'atom') return textOf(parsed.feed.title);
  return parsed.feed.title ?? '';
}

/** An Atom text construct's text: markup read as HTML's visible text. */
function textOf(text: { value: string; type?: string } | undefined): string {
  if (text === undefined) return '';
  return MARKUP_TEXT.has(text.type ?? '') ? scanHtml(text.value).text : text.value;
}

function isNotAFeed(error: unknown): boolean {
  return (
    error instanceof DetectError ||
    error instanceof ParseError ||
    error instanceof MalformedError ||
    error instanceof SyntaxError
  );
}

interface Entry {
  title: string;
  link?: string;
  key?: string;
}

/** Each format's entries: title, link (Atom: the `alternate` link, else the first) and id. */
function entries(parsed: AnyFeed): Entry[] {
  switch (parsed.format) {
    case 'rss':
      return (parsed.feed.items ?? []).map((item) => ({
        title: item.title ?? '',
        link: item.link,
        key: item.guid?.value,
      }));
    case 'rdf':
      return (parsed.feed.items ?? []).map((item) => ({
        title: item.title ?? '',
        link: item.link,
      }));
    case 'atom':
      return (parsed.feed.entries ?? []).map((entry) => {
        const links = entry.links ?? [];
        const link = links.find((candidate) => (candidate.rel ?? 'alternate') === 'alternate');
        return {
          title: textOf(entry.title),
          link: (link ?? links[0])?.href,
          key: entry.id,
        };
      });
    case 'json':
      return (parsed.feed.items ?? []).map((item) => ({
        title: item.title ?? '',
        link: item.url ?? item.external_url,
        key: item.id,
      }));
  }
}

/** Whitespace collapsed, on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
