/** A product's availability as values hold it (docs/pages.md, "Values read from pages"). */
export type Availability = 'in_stock' | 'out_of_stock' | 'preorder' | 'backorder';

const AVAILABILITIES = new Map<string, Availability>([
  ['instock', 'in_stock'],
  ['instoreonly', 'in_stock'],
  ['onlineonly', 'in_stock'],
  ['limitedavailability', 'in_stock'],
  ['outofstock', 'out_of_stock'],
  ['soldout', 'out_of_stock'],
  ['discontinued', 'out_of_stock'],
  ['preorder', 'preorder'],
  ['presale', 'preorder'],
  ['backorder', 'backorder'],
]);

/** The schema.org prefixes an availability may carry, `schema:` among them. */
const PREFIX = /^\s*(?:https?:\/\/(?:www\.)?schema\.org\/|schema:)/i;

/**
 * A schema.org availability (`InStock`, `https://schema.org/OutOfStock`, ...) as one of the four
 * values; null for anything else. Read case-insensitively: pages write `instock` too.
 */
export function normaliseAvailability(value: string): Availability | null {
  return AVAILABILITIES.get(value.replace(PREFIX, '').trim().toLowerCase()) ?? null;
}
