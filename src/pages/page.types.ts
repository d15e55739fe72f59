/** The vocabulary of page monitors (docs/pages.md); a leaf that imports nothing of ours. */

/** A task watches at most this many pages. */
export const MAX_PAGES = 10;

/**
 * The fields of a page that hold credentials (cookies, tokens), shown to the task's owner only
 * and never stored a second time: an `Idempotency-Key`'s kept answer holds null for each.
 */
export const PAGE_CREDENTIALS = ['headers'] as const;

/** A page a task watches, as validated when saved. */
export interface PageTarget {
  url: string;
  selector?: string;
  headers?: Record<string, string>;
  /** Read the page as a list of items (docs/pages.md, "Items and feeds"). */
  items?: { selector?: string };
  values?: PageValueTarget[];
  /** How the page is loaded: `http` (the default) or `browser` (docs/pages.md, "Pages that need a browser"). */
  render?: PageRender;
  /** With `render: "browser"`: a CSS selector the page is read once it matches. */
  wait_for?: string;
}

export type PageRender = 'http' | 'browser';

/** One item of a list or a feed, as shown (docs/pages.md, "Items and feeds"). */
export interface PageItem {
  title: string;
  url: string | null;
}

/** Where a page's value is read from (docs/pages.md, "Values read from pages"). */
export type PageValueSource = 'number' | 'text' | 'price' | 'availability' | 'json';

/** A value a page declares, as validated when saved. */
export interface PageValueTarget {
  name: string;
  from: PageValueSource;
  selector?: string;
  path?: string;
}

/** A value as a page holds it: what a JSON page's value may be, or a number or text read. */
export type PageValue = string | number | boolean | null;

/**
 * One declared value as a fetch read it: the value and where on the page it was read (for a
 * rule's reasoning), or why there is none.
 */
export type PageValueReading = { value: PageValue; source: string } | { error: string };

/** A page's declared values by name, as one fetch read them. */
export type PageValueReadings = Record<string, PageValueReading>;

/** What the last good fetch of a page left behind, for conditional requests and comparison. */
export interface PageSnapshot {
  /**
   * Loads the text, which only a body that changed, or a rule or model call that reads a page
   * found the same, needs (docs/pages.md, "Checks of page tasks"); null when the snapshot went
   * meanwhile (its page no longer named).
   */
  text: () => Promise<string | null>;
  title: string | null;
  contentHash: string;
  etag?: string;
  lastModified?: string;
  /** `bodyHash` of the fetch the text was read from. */
  bodyHash?: string;
  /**
   * Of a page with items: loads the hashes of the item keys seen, which only a body that changed
   * needs; absent before the page's first good fetch.
   */
  seenKeys?: () => Promise<string[]>;
  /** The page's values as that fetch read them; absent when it declared none. */
  values?: PageValueReadings;
}

export type PageStatus = 'new' | 'same' | 'changed' | 'error';

/** One page as a check read it. */
export interface PageResult {
  url: string;
  render: PageRender;
  finalUrl: string | null;
  status: PageStatus;
  httpStatus: number | null;
  title: string | null;
  /** The short fixed form of why the page could not be read; null unless `error`. */
  error: string | null;
  added: string[];
  removed: string[];
  fetchedAt: Date;
  /**
   * The text read; of a `same` page, the last good text once the check loads it, as it does when a
   * rule or the model reads the page (null until then); null for `error`.
   */
  text: string | null;
  contentHash: string | null;
  /** Validators of this fetch, for the next one's conditional request. */
  etag: string | null;
  lastModified: string | null;
  /** `bodyHash` of what the text was read from; null for `error`. */
  bodyHash: string | null;
  /** Of a page with items: the first new items in the page's order; null for other pages. */
  newItems: PageItem[] | null;
  /** The keys of `newItems`. */
  newItemKeys: string[];
  /** The hashes of the item keys this fetch saw first, to remember. */
  keysToRemember: string[];
  /** The page's declared values as read (for `error`, each `page error`); absent without. */
  values?: PageValueReadings;
  /** A good browser read's PNG of the viewport (docs/pages.md, "Screenshots"). */
  screenshot?: Buffer;
}

export type PageRule =
  | { type: 'changed' }
  | { type: 'new_items' }
  | { type: 'contains'; text: string }
  | { type: 'not_contains'; text: string }
  | { type: 'below' | 'above'; value: string; than: number }
  | { type: 'equals'; value: string; to: string | number | boolean };
