import type { PageBody } from '../fetching/page-fetcher';
import { PageErrorForm } from '../page-errors';
import type { PageTarget } from '../page.types';
import { HTML_TYPES, kept, nestsTooDeep, readPageText, type PageText } from '../reading/page-text';
import { feedSource, readFeed } from './feed-items';
import { HtmlItems } from './html-items';
import { itemsText, type ReadItem } from './page-items';

/** A page read as a list: its text is one line per item. */
export type PageList =
  | { kind: 'text'; text: string; title: string | null; items: ReadItem[] }
  | { kind: 'error'; error: string };

/**
 * A page read as a list of items (docs/pages.md, "Items and feeds"), or null for a page that is
 * read as text: a feed is always a list, whatever its `items`; any other page is one when it
 * carries `items` (an HTML page by its items selector; without one, or of another type, it is
 * `not a feed`). Links are resolved against `finalUrl`.
 */
export function readPageList(
  answer: PageBody,
  items: PageTarget['items'],
  finalUrl: string,
): PageList | null {
  const source = feedSource(answer);
  if (source !== null) {
    if (answer.contentType === 'application/feed+json' && nestsTooDeep(source)) {
      return { kind: 'error', error: PageErrorForm.TOO_COMPLEX };
    }
    const feed = readFeed(source, answer.contentType, finalUrl);
    if (feed === null) return { kind: 'error', error: PageErrorForm.NOT_A_FEED };
    return listed(kept(itemsText(feed.items), feed.title), feed.items);
  }
  if (items === undefined) return null;
  if (!HTML_TYPES.has(answer.contentType) || items.selector === undefined) {
    return { kind: 'error', error: PageErrorForm.NOT_A_FEED };
  }
  const reader = new HtmlItems(finalUrl);
  const read = readPageText(answer, undefined, { selector: items.selector, reader });
  if (read.kind === 'error') return read;
  const found = reader.finish();
  if (found === null) return { kind: 'error', error: PageErrorForm.SELECTOR_MATCHED_NOTHING };
  return listed(kept(itemsText(found), read.title), found);
}

function listed(read: PageText, items: ReadItem[]): PageList {
  return read.kind === 'error' ? read : { ...read, items };
}
