import type { OutputSchema, OutputValues } from '../../search/output-schema';
import type { PageResult, PageTarget, PageValueSource } from '../page.types';

/** The type a value of each source has, as `changes` and the console's chart read it. */
const VALUE_TYPES: Record<PageValueSource, 'number' | 'string'> = {
  number: 'number',
  price: 'number',
  text: 'string',
  availability: 'string',
  json: 'string',
};

/**
 * The values a task's pages declare, as the schema its executions' `values` and `changes` are
 * computed with (docs/pages.md, "Values read from pages"): one property per value, in the
 * pages' order, described by where it is read from, so that a value read another way starts a
 * new baseline. Null when the pages declare none.
 */
export function pageValuesSchema(pages: readonly PageTarget[] | null): OutputSchema | null {
  const declared = (pages ?? []).flatMap((page) => page.values ?? []);
  if (declared.length === 0) return null;
  return {
    type: 'object',
    properties: Object.fromEntries(
      declared.map((value) => [
        value.name,
        {
          type: VALUE_TYPES[value.from],
          description: JSON.stringify([value.from, value.selector ?? null, value.path ?? null]),
        },
      ]),
    ),
  };
}

/** Every declared value of a check's pages by name: the value read, or null. */
export function readTaskValues(results: readonly PageResult[]): OutputValues | null {
  const read = results.filter((result) => result.values !== undefined);
  if (read.length === 0) return null;
  return Object.fromEntries(
    read.flatMap((result) =>
      Object.entries(result.values ?? {}).map(([name, reading]) => [
        name,
        'value' in reading ? reading.value : null,
      ]),
    ),
  );
}

/**
 * `No value could be read: <name>: <reason>; ...` when the pages declare values, every one is
 * null and at least one of their pages is not an error (a selector broken by a redesign shows
 * as a failing check); null otherwise.
 */
export function noValueRead(results: readonly PageResult[]): string | null {
  const declaring = results.filter((result) => result.values !== undefined);
  if (declaring.length === 0 || declaring.every((result) => result.status === 'error')) {
    return null;
  }
  const readings = declaring.flatMap((result) => Object.entries(result.values ?? {}));
  if (readings.some(([, reading]) => 'value' in reading && reading.value !== null)) return null;
  const reasons = readings.map(
    ([name, reading]) => `${name}: ${'error' in reading ? reading.error : 'null'}`,
  );
  return `No value could be read: ${reasons.join('; ')}`;
}
