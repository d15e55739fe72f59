import type { PageBody } from '../fetching/page-fetcher';
import { PageErrorForm } from '../page-errors';
import type { PageTarget, PageValueReadings, PageValueTarget } from '../page.types';
import { HTML_TYPES, kept, readPageText, type PageText } from '../reading/page-text';
import { nestsTooDeep } from '../reading/text-bounds';
import { jsonValues } from '../values/page-values';
import { feedSource, readFeed } from './feed-items';
import { HtmlItems } from './html-items';
import { itemsText, type ReadItem } from './page-items';

/** A page read as a list: its text is one line per item. */
export type PageList =
  | {
      kind: 'text';
      text: string;
      title: string | null;
      values?: PageValueReadings;
      items: ReadItem[];
    }
  | { kind: 'error'; error: string };

/**
 * A page read as a list of items (docs/pages.md, "Items and feeds"), or null for a page that is
 * read as text: a feed is always a list, whatever its `items`; any other page is one when it
 * carries `items` (an HTML page by its items selector; without one, or of another type, it is
 * `not a feed`). Links are resolved against `finalUrl`. Declared `values` are read from the
 * same parse as an HTML list's items; of a feed, only a JSON Feed's `json` values are found
 * (docs/pages.md, "Values read from pages").
 */
export function readPageList(
  answer: PageBody,
  items: PageTarget['items'],
  finalUrl: string,
  values?: readonly PageValueTarget[],
): PageList | null {
  const source = feedSource(answer);
  if (source !== null) {
    if (answer.contentType === 'application/feed+json' && nestsTooDeep(source)) {
      return { kind: 'error', error: PageErrorForm.TOO_COMPLEX };
    }
    const feed = readFeed(source, answer.contentType, finalUrl);
    if (feed === null) return { kind: 'error', error: PageErrorForm.NOT_A_FEED };
    const read = kept(itemsText(feed.items), feed.title);
    if (read.kind === 'error' || values === undefined) return listed(read, feed.items);
    return listed(read, feed.items, jsonValues(values, feedDocument(source, answer)));
  }
  if (items === undefined) return null;
  if (!HTML_TYPES.has(answer.contentType) || items.selector === undefined) {
    return { kind: 'error', error: PageErrorForm.NOT_A_FEED };
  }
  const reader = new HtmlItems(finalUrl);
  const read = readPageText(answer, undefined, values, { selector: items.selector, reader });
  if (read.kind === 'error') return read;
  const found = reader.finish();
  if (found === null) return { kind: 'error', error: PageErrorForm.SELECTOR_MATCHED_NOTHING };
  return listed(kept(itemsText(found), read.title), found, read.values);
}

/** A JSON Feed's document, which `json` values are read from; none for an RSS or Atom feed. */
function feedDocument(source: string, answer: PageBody): unknown {
  return answer.contentType === 'application/feed+json' ? JSON.parse(source) : undefined;
}

function listed(read: PageText, items: ReadItem[], values?: PageValueReadings): PageList {
  if (read.kind === 'error') return read;
  return values === undefined ? { ...read, items } : { ...read, values, items };
}
