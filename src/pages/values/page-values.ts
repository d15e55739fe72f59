import { exec, type JsonValue } from 'jsonpath-rfc9535';
import { cutText, storable } from '../reading/text-bounds';
import type {
  PageValue,
  PageValueReading,
  PageValueReadings,
  PageValueTarget,
} from '../page.types';
import type { HtmlValueSources } from './html-values';
import { readNumber } from './number-reader';
import { jsonLdOffers, lowestPrice, offersAvailability, statedNumber } from './structured-data';

/** Why a declared value is null (docs/pages.md, "Values read from pages"). */
const ValueError = {
  NOT_FOUND: 'not found',
  NOT_A_NUMBER: 'not a number',
  NOT_A_VALUE: 'not a value',
  PAGE_ERROR: 'page error',
} as const;

/** A `text` value, and a string a JSONPath reads, keep at most this many characters. */
const MAX_TEXT_VALUE_CHARS = 500;
/** The text a number was read from is quoted in its source up to this many characters. */
const QUOTED_CHARS = 100;

const missing = (error: string): PageValueReading => ({ error });

/** Each declared value of a page that could not be read: `page error`. */
export function failedPageValues(values: readonly PageValueTarget[]): PageValueReadings {
  return Object.fromEntries(values.map((value) => [value.name, missing(ValueError.PAGE_ERROR)]));
}

/** The values of an HTML page, from what its one reading found (`HtmlValueScanner`). */
export function htmlValues(
  values: readonly PageValueTarget[],
  sources: HtmlValueSources,
): PageValueReadings {
  return readEach(values, (value) => htmlValue(value, sources));
}

/** The values of a `text/plain` page: a `number` without selector reads its whole text. */
export function plainTextValues(
  values: readonly PageValueTarget[],
  text: string,
): PageValueReadings {
  return readEach(values, (value) =>
    value.from === 'number' && value.selector === undefined
      ? numberIn(text, 'page text')
      : missing(ValueError.NOT_FOUND),
  );
}

/** The values of a JSON page, from its one parse (`undefined`: its body is not JSON). */
export function jsonValues(
  values: readonly PageValueTarget[],
  document: unknown,
): PageValueReadings {
  return readEach(values, (value) =>
    value.from === 'json' && value.path !== undefined && document !== undefined
      ? jsonValue(document, value.path)
      : missing(ValueError.NOT_FOUND),
  );
}

function readEach(
  values: readonly PageValueTarget[],
  read: (value: PageValueTarget) => PageValueReading,
): PageValueReadings {
  return Object.fromEntries(values.map((value) => [value.name, storableReading(read(value))]));
}

/** A reading with U+0000 as U+FFFD, as in a page's text. */
function storableReading(reading: PageValueReading): PageValueReading {
  if ('error' in reading) return reading;
  const value = typeof reading.value === 'string' ? storable(reading.value) : reading.value;
  return { value, source: storable(reading.source) };
}

function htmlValue(value: PageValueTarget, sources: HtmlValueSources): PageValueReading {
  const selected =
    value.selector === undefined ? undefined : (sources.selected.get(value.selector) ?? null);
  switch (value.from) {
    case 'number':
      return selectedNumber(value.selector, selected);
    case 'text':
      if (selected === undefined || selected === null) return missing(ValueError.NOT_FOUND);
      return {
        value: cutText(selected.replaceAll('\n', ' '), MAX_TEXT_VALUE_CHARS),
        source: `selector ${value.selector}`,
      };
    case 'price':
      return value.selector === undefined
        ? structuredPrice(sources)
        : selectedNumber(value.selector, selected);
    case 'availability':
      return structuredAvailability(sources);
    case 'json':
      return missing(ValueError.NOT_FOUND);
  }
}

/** The first number in the text of a selector's first match. */
function selectedNumber(
  selector: string | undefined,
  selected: string | null | undefined,
): PageValueReading {
  if (selector === undefined || selected === undefined || selected === null) {
    return missing(ValueError.NOT_FOUND);
  }
  return numberIn(selected, `selector ${selector}`);
}

function numberIn(text: string, where: string): PageValueReading {
  const value = readNumber(text);
  if (value === null) return missing(ValueError.NOT_A_NUMBER);
  return { value, source: `${where}: ${JSON.stringify(cutText(text.trim(), QUOTED_CHARS))}` };
}

/**
 * The product's price from structured data: JSON-LD offers, then microdata, then the price
 * `meta` tags; of several offers, the lowest.
 */
function structuredPrice(sources: HtmlValueSources): PageValueReading {
  const offers = jsonLdOffers(sources.jsonLd);
  const microdata = sources.microdataPrices.flatMap((stated) => {
    const value = statedNumber(stated);
    return value === null ? [] : [{ value, source: 'microdata' }];
  });
  const meta = [...sources.metaPrices].flatMap(([property, stated]) => {
    const value = statedNumber(stated);
    return value === null ? [] : [{ value, source: `meta ${property}` }];
  });
  const found = lowestPrice(offers.prices) ?? lowestPrice(microdata) ?? meta[0] ?? null;
  if (found !== null) return found;
  const stated = sources.microdataPrices.length > 0 || sources.metaPrices.size > 0;
  return missing(stated ? ValueError.NOT_A_NUMBER : ValueError.NOT_FOUND);
}

/** The offers' availability from JSON-LD, else from microdata. */
function structuredAvailability(sources: HtmlValueSources): PageValueReading {
  const fromJsonLd = jsonLdOffers(sources.jsonLd).availabilities;
  const jsonLd = offersAvailability(fromJsonLd);
  if (jsonLd !== null) return { value: jsonLd, source: 'JSON-LD offers.availability' };
  const microdata = offersAvailability(sources.microdataAvailabilities);
  if (microdata !== null) return { value: microdata, source: 'microdata' };
  const stated = fromJsonLd.length > 0 || sources.microdataAvailabilities.length > 0;
  return missing(stated ? ValueError.NOT_A_VALUE : ValueError.NOT_FOUND);
}

/** Thrown from a JSONPath's first node: the rest of the document is not walked. */
const FIRST_NODE = new Error('first node');

/**
 * The value of a JSONPath's first node: a string, a number, a boolean or null. The walk stops
 * at that node; a path that walks long finding none is bounded by the read's deadline.
 */
function jsonValue(document: unknown, path: string): PageValueReading {
  let first: { node: JsonValue } | null = null;
  try {
    exec(document as JsonValue, path, (node) => {
      first = { node };
      throw FIRST_NODE;
    });
  } catch (error) {
    if (error !== FIRST_NODE) return missing(ValueError.NOT_FOUND);
  }
  if (first === null) return missing(ValueError.NOT_FOUND);
  const { node } = first as { node: JsonValue };
  if (node !== null && typeof node === 'object') return missing(ValueError.NOT_A_VALUE);
  const value = typeof node === 'string' ? cutText(node, MAX_TEXT_VALUE_CHARS) : node;
  return { value, source: `path ${path}` };
}

/**
 * The declared values as the last good fetch read them, for a fetch whose body is not read
 * again; a value declared since then is `not found`.
 */
export function keptValues(
  values: readonly PageValueTarget[],
  kept: PageValueReadings | undefined,
): PageValueReadings {
  return readEach(values, (value) => kept?.[value.name] ?? missing(ValueError.NOT_FOUND));
}

/** Whether two readings of a page's values differ in some value (where they were read aside). */
export function valuesDiffer(
  before: PageValueReadings | undefined,
  after: PageValueReadings | undefined,
): boolean {
  if (after === undefined) return false;
  return Object.entries(after).some(
    ([name, reading]) => valueOf(before?.[name]) !== valueOf(reading),
  );
}

function valueOf(reading: PageValueReading | undefined): PageValue {
  return reading !== undefined && 'value' in reading ? reading.value : null;
}
