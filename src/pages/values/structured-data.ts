import { nestsTooDeep } from '../reading/text-bounds';
import { normaliseAvailability, type Availability } from './availability';
import { readNumber } from './number-reader';

/** A JSON-LD block longer than this is skipped unread: product data is a few kilobytes. */
export const MAX_JSON_LD_CHARS = 1_000_000;
/** JSON-LD blocks read per page at most; the rest are skipped. */
export const MAX_JSON_LD_BLOCKS = 20;
/** Objects walked through a page's JSON-LD at most, looking for offers. */
const MAX_JSON_LD_NODES = 10_000;

/** A price as structured data states it, and where. */
export interface StatedPrice {
  value: number;
  source: string;
}

/** The offers a page's structured data states, in document order. */
export interface StatedOffers {
  prices: StatedPrice[];
  /** Each offer's availability, as stated (before it is read as one of the four). */
  availabilities: string[];
}

const OFFER_TYPES = new Set(['offer', 'aggregateoffer']);
const PRODUCT_TYPES = new Set(['product', 'productgroup']);

/**
 * The offers of a page's JSON-LD blocks (docs/pages.md, "Values read from pages"): items of
 * `@type` `Offer` or `AggregateOffer`, and the `offers` (an object or a list) of `Product` and
 * `ProductGroup` items, wherever they stand (`@graph` included). A block that is too long, too
 * deep or not JSON is skipped; the walk stops after MAX_JSON_LD_NODES objects.
 */
export function jsonLdOffers(blocks: readonly string[]): StatedOffers {
  const offers: Record<string, unknown>[] = [];
  let budget = MAX_JSON_LD_NODES;
  const walk = (value: unknown): void => {
    if (budget <= 0 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    budget -= 1;
    const item = value as Record<string, unknown>;
    const types = typesOf(item['@type']);
    if (types.some((type) => OFFER_TYPES.has(type))) {
      offers.push(item);
      return;
    }
    if (types.some((type) => PRODUCT_TYPES.has(type))) {
      for (const offer of [item.offers].flat()) {
        if (offer !== null && typeof offer === 'object' && !Array.isArray(offer)) {
          offers.push(offer as Record<string, unknown>);
        }
      }
    }
    for (const [key, nested] of Object.entries(item)) {
      if (key !== 'offers') walk(nested);
    }
  };
  for (const block of blocks.slice(0, MAX_JSON_LD_BLOCKS)) walk(parsedBlock(block));
  return {
    prices: offers.flatMap((offer) => {
      const price = offerPrice(offer);
      return price === null ? [] : [price];
    }),
    availabilities: offers.flatMap((offer) =>
      typeof offer.availability === 'string' ? [offer.availability] : [],
    ),
  };
}

function parsedBlock(block: string): unknown {
  if (block.length > MAX_JSON_LD_CHARS || nestsTooDeep(block)) return null;
  try {
    return JSON.parse(block);
  } catch {
    return null;
  }
}

/** `@type` as lower-case names, whether one or a list, with a vocabulary's prefix or not. */
function typesOf(type: unknown): string[] {
  return [type]
    .flat()
    .filter((name): name is string => typeof name === 'string')
    .map((name) => name.replace(/^.*[/:#]/, '').toLowerCase());
}

/** An offer's `price`, else its `lowPrice`, else its `priceSpecification.price`. */
function offerPrice(offer: Record<string, unknown>): StatedPrice | null {
  const specification = [offer.priceSpecification].flat()[0];
  const candidates: Array<[unknown, string]> = [
    [offer.price, 'JSON-LD offers.price'],
    [offer.lowPrice, 'JSON-LD offers.lowPrice'],
    [
      specification !== null && typeof specification === 'object'
        ? (specification as Record<string, unknown>).price
        : undefined,
      'JSON-LD offers.priceSpecification.price',
    ],
  ];
  for (const [stated, source] of candidates) {
    const value = statedNumber(stated);
    if (value !== null) return { value, source };
  }
  return null;
}

/** A number as structured data states it: a JSON number, or a string holding one. */
export function statedNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'string' ? readNumber(value) : null;
}

/** The lowest of several prices, the first of equal ones. */
export function lowestPrice(prices: readonly StatedPrice[]): StatedPrice | null {
  return prices.reduce<StatedPrice | null>(
    (lowest, price) => (lowest === null || price.value < lowest.value ? price : lowest),
    null,
  );
}

/**
 * The availability of several offers: `in_stock` when any offer is, else the first offer's;
 * null when no offer states one that reads as one of the four.
 */
export function offersAvailability(stated: readonly string[]): Availability | null {
  const read = stated.map(normaliseAvailability).filter((value) => value !== null);
  return read.includes('in_stock') ? 'in_stock' : (read[0] ?? null);
}
