import type { PageTarget } from '../page.types';

/**
 * The URLs of a task's pages that are fetched with the owner's `headers` (cookies, tokens): what
 * those fetches read is shown to the owner only (docs/pages.md, "Public tasks").
 */
export function pagesWithHeaders(pages: readonly PageTarget[] | null): ReadonlySet<string> {
  return new Set(
    (pages ?? [])
      .filter((page) => Object.keys(page.headers ?? {}).length > 0)
      .map((page) => page.url),
  );
}
