import type { PageTarget } from '../pages/page.types';
import { TEXT_MAX } from './dto/create-task.dto';

/** A name taken from a page is cut to this many characters (a name given may be longer). */
const PAGE_NAME_MAX = 100;

/**
 * The `search_query` of a task with pages that gives none (docs/pages.md, "Pages on a task"):
 * `Watch <first page URL>`, cut to 500 characters. The URL is the one stored, as WHATWG URL
 * parsing writes it.
 */
export function watchQuery(pages: readonly PageTarget[]): string {
  return `Watch ${pages[0].url}`.slice(0, TEXT_MAX);
}

/** The name of a task with pages that gives none: the first page's host and path, cut to 100. */
export function watchName(pages: readonly PageTarget[]): string {
  const { host, pathname } = new URL(pages[0].url);
  return `${host}${pathname}`.slice(0, PAGE_NAME_MAX);
}
