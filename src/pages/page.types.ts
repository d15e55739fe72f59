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
  /** How the page is loaded: `http` (the default) or `browser` (docs/pages.md, "Pages that need a browser"). */
  render?: PageRender;
  /** With `render: "browser"`: a CSS selector the page is read once it matches. */
  wait_for?: string;
}

export type PageRender = 'http' | 'browser';

/** What the last good fetch of a page left behind, for conditional requests and comparison. */
export interface PageSnapshot {
  text: string;
  title: string | null;
  contentHash: string;
  etag?: string;
  lastModified?: string;
  /** `bodyHash` of the fetch the text was read from. */
  bodyHash?: string;
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
  /** The text read (or, for a 304, the last good text); null for `error`. */
  text: string | null;
  contentHash: string | null;
  /** Validators of this fetch, for the next one's conditional request. */
  etag: string | null;
  lastModified: string | null;
  /** `bodyHash` of what the text was read from; null for `error`. */
  bodyHash: string | null;
  /** A good browser read's PNG of the viewport (docs/pages.md, "Screenshots"). */
  screenshot?: Buffer;
}

export type PageRule =
  { type: 'changed' } | { type: 'contains'; text: string } | { type: 'not_contains'; text: string };
