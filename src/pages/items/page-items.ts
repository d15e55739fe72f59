import { createHash } from 'node:crypto';
import { MAX_DIFF_LINE_CHARS } from '../reading/page-comparison';
import { cutText, storable } from '../reading/text-bounds';
import type { PageItem, PageStatus } from '../page.types';

/** At most this many items of a page are read, and as many of their keys remembered. */
export const MAX_ITEMS = 5_000;
/** New items shown per page and check, in the page's order. */
export const MAX_NEW_ITEMS = 50;
/** An item's title is cut to this many characters. */
export const MAX_ITEM_TITLE_CHARS = 300;
/** An item's link longer than this is no link: as long as a page's own `url` may be. */
const MAX_ITEM_URL_CHARS = 2_048;

/** An item as read from a list or a feed, with the key that tells it from the others. */
export interface ReadItem extends PageItem {
  key: string;
}

/** What a fetch's items mean against the keys seen before (docs/pages.md, "Items and feeds"). */
export interface ItemComparison {
  status: Exclude<PageStatus, 'error'>;
  newItems: PageItem[];
  newItemKeys: string[];
  /** Lines of the new items, as `added`. */
  added: string[];
  keysToRemember: string[];
}

/**
 * An item of a title and a link (resolved against `base`), or null when it has neither: its key
 * is `key` when given (a feed's `guid` or `id`), else its link, else its title. A U+0000 in the
 * title or the key reads as U+FFFD, as in a page's text: both are stored.
 */
export function readItem(
  title: string,
  href: string | null,
  base: string,
  key?: string,
): ReadItem | null {
  const url = resolved(href, base);
  const kept = storable(cutText(title, MAX_ITEM_TITLE_CHARS));
  const itemKey = (key && storable(key)) || url || kept;
  if (!itemKey) return null;
  return { title: kept, url, key: itemKey };
}

function resolved(href: string | null, base: string): string | null {
  if (href === null || href.trim() === '') return null;
  let url: string;
  try {
    url = new URL(href.trim(), base).href;
  } catch {
    return null;
  }
  return url.length > MAX_ITEM_URL_CHARS ? null : url;
}

/** An item's line in the page's text: `<title> <url>`, or the one of them it has. */
export function itemLine(item: PageItem): string {
  return [item.title, item.url].filter(Boolean).join(' ');
}

/** The text of a list of items: one line per item. */
export function itemsText(items: readonly PageItem[]): string {
  return items.map(itemLine).join('\n');
}

/** Hex SHA-256 of an item's key: what is remembered of it. */
export function itemKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * A fetch's items against the hashes of the keys seen (`seenKeys`; null before the page's first
 * good fetch with items, which is the baseline: nothing on it is new, every key is remembered).
 * The page is `changed` when some item's key was never seen, else `same` (`new` without an
 * earlier good fetch of the page): items that go away or move are no change.
 */
export function compareItems(
  items: readonly ReadItem[],
  seenKeys: readonly string[] | null,
  fetchedBefore: boolean,
): ItemComparison {
  const seen = new Set(seenKeys);
  const fresh: ReadItem[] = [];
  const keysToRemember: string[] = [];
  for (const item of items) {
    const hash = itemKeyHash(item.key);
    if (seen.has(hash)) continue;
    seen.add(hash);
    keysToRemember.push(hash);
    fresh.push(item);
  }
  const shown = seenKeys === null ? [] : fresh.slice(0, MAX_NEW_ITEMS);
  const status = !fetchedBefore ? 'new' : shown.length > 0 ? 'changed' : 'same';
  return {
    status,
    newItems: shown.map(({ title, url }) => ({ title, url })),
    newItemKeys: shown.map((item) => item.key),
    added: shown.map((item) => cutText(itemLine(item), MAX_DIFF_LINE_CHARS)),
    keysToRemember,
  };
}
