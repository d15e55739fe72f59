import { BadRequestException } from '@nestjs/common';
import parseJsonPath from 'jsonpath-rfc9535/parser';
import type { PageTarget, PageValueSource, PageValueTarget } from '../page.types';

/** A task's pages declare at most this many values in all. */
const MAX_TASK_VALUES = 10;
const MAX_JSON_PATH_CHARS = 200;
const NAME = /^[a-z][a-z0-9_]{0,39}$/;
const SOURCES: readonly PageValueSource[] = ['number', 'text', 'price', 'availability', 'json'];
const FIELDS = new Set(['name', 'from', 'selector', 'path']);

/** Which sources take a selector, and which need one. */
const SELECTOR: Record<PageValueSource, 'required' | 'optional' | 'refused'> = {
  number: 'optional',
  text: 'required',
  price: 'optional',
  availability: 'refused',
  json: 'refused',
};

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid pages: ${reason}`);
}

/** Checks a selector as a page's own is checked: the selector, or a 400 naming `field`. */
export type SelectorCheck = (value: unknown, field: string) => string;

/**
 * The `values` of a page entry at `at` (docs/pages.md, "Values read from pages"); absent when
 * not given. 400 `Invalid pages: <at>.values[<i>].<field> ...` otherwise.
 */
export function pageValueTargets(
  value: unknown,
  at: string,
  checkSelector: SelectorCheck,
): PageValueTarget[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_TASK_VALUES) {
    throw invalid(`${at}.values must be a list of 1 to ${MAX_TASK_VALUES} values`);
  }
  return value.map((entry, index) =>
    pageValueTarget(entry, `${at}.values[${index}]`, checkSelector),
  );
}

/**
 * The rules between the values of a task's pages: at most MAX_TASK_VALUES in all, each name
 * used once.
 */
export function checkTaskValues(pages: readonly PageTarget[]): void {
  const seen = new Set<string>();
  pages.forEach((page, pageIndex) =>
    (page.values ?? []).forEach((value, index) => {
      if (seen.has(value.name)) {
        throw invalid(
          `pages[${pageIndex}].values[${index}].name ${value.name} is used twice; names are unique across the task's pages`,
        );
      }
      seen.add(value.name);
    }),
  );
  if (seen.size > MAX_TASK_VALUES) {
    throw invalid(`a task's pages may declare at most ${MAX_TASK_VALUES} values in all`);
  }
}

function pageValueTarget(
  entry: unknown,
  at: string,
  checkSelector: SelectorCheck,
): PageValueTarget {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw invalid(`${at} must be an object with a name and a from`);
  }
  const fields = entry as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => !FIELDS.has(name));
  if (unknown !== undefined) throw invalid(`${at} has an unknown field ${unknown}`);
  const { name, from, selector, path } = fields;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw invalid(`${at}.name must match ^[a-z][a-z0-9_]{0,39}$`);
  }
  if (typeof from !== 'string' || !SOURCES.includes(from as PageValueSource)) {
    throw invalid(`${at}.from must be one of ${SOURCES.join(', ')}`);
  }
  const source = from as PageValueSource;
  const wantsSelector = SELECTOR[source];
  if (selector !== undefined && selector !== null && wantsSelector === 'refused') {
    throw invalid(`${at}.selector is not allowed with from ${source}`);
  }
  if ((selector === undefined || selector === null) && wantsSelector === 'required') {
    throw invalid(`${at}.selector is required with from ${source}`);
  }
  if (path !== undefined && path !== null && source !== 'json') {
    throw invalid(`${at}.path is only allowed with from json`);
  }
  return {
    name,
    from: source,
    ...(selector === undefined || selector === null
      ? {}
      : { selector: checkSelector(selector, `${at}.selector`) }),
    ...(source === 'json' ? { path: jsonPath(path, `${at}.path`) } : {}),
  };
}

/** An RFC 9535 JSONPath of at most MAX_JSON_PATH_CHARS characters, as its parser reads it. */
function jsonPath(value: unknown, field: string): string {
  if (value === undefined || value === null) throw invalid(`${field} is required with from json`);
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_JSON_PATH_CHARS) {
    throw invalid(`${field} must be a JSONPath of 1 to ${MAX_JSON_PATH_CHARS} characters`);
  }
  try {
    parseJsonPath(value);
  } catch (error) {
    throw invalid(`${field} is not an RFC 9535 JSONPath: ${(error as Error).message}`);
  }
  return value;
}
