import type { PageResult } from '../page.types';

/** New titles quoted in a `new_items` rule's reasoning. */
const QUOTED_TITLES = 5;

/**
 * What the `new_items` rule makes of a check's pages (docs/pages.md, "Items and feeds"): met when
 * some page has new items. Its state holds the new keys, so an `always` task notifies on every
 * check that finds new items.
 */
export function newItemsVerdict(results: readonly PageResult[]): {
  claimedMet: boolean;
  answer: string;
  reasoning: string;
  currentState: { rule: 'new_items'; met: boolean; keys: string[] };
} {
  const fresh = results.filter((result) => (result.newItems ?? []).length > 0);
  const keys = fresh.flatMap((result) => result.newItemKeys);
  const met = fresh.length > 0;
  const currentState = { rule: 'new_items' as const, met, keys };
  if (!met) {
    const listed = results.filter((result) => result.newItems !== null);
    const baseline = listed.length > 0 && listed.every((result) => result.status === 'new');
    return {
      claimedMet: false,
      answer: 'No new items',
      reasoning: baseline
        ? 'First fetch: the items listed now are the baseline; later ones are new.'
        : 'Every item listed was seen before.',
      currentState,
    };
  }
  return {
    claimedMet: true,
    answer: fresh.map((result) => `${count(result.newItems ?? [])} on ${result.url}`).join('; '),
    reasoning: fresh
      .map((result) => {
        const titles = (result.newItems ?? [])
          .slice(0, QUOTED_TITLES)
          .map((item) => JSON.stringify(item.title || item.url));
        return `${result.url}: ${titles.join(', ')}.`;
      })
      .join(' '),
    currentState,
  };
}

function count(items: readonly unknown[]): string {
  return items.length === 1 ? '1 new item' : `${items.length} new items`;
}
