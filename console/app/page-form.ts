/** The pages and page rule of the task form, and the request body they make. */
import type {
  PageRule,
  PageRuleType,
  PageTarget,
  PageValueSource,
  PageValueTarget,
  Task,
} from './types';

/** A value a page reads, as the form edits it (docs/pages.md, "Values read from pages"). */
export interface PageValueRow {
  key: number;
  name: string;
  from: PageValueSource;
  selector: string;
  path: string;
}

export interface PageRow {
  key: number;
  url: string;
  selector: string;
  headers: Record<string, string>;
  /** Read the page as a list of items (docs/pages.md, "Items and feeds"). */
  items: boolean;
  /** The selector of an HTML list's items; none for a feed. */
  itemsSelector: string;
  values: PageValueRow[];
  /** Loaded in a browser (`render: "browser"`), with the selector it waits for, if any. */
  browser: boolean;
  waitFor: string;
}

/** The pages a task watches and its page rule, as the form edits them. */
export interface PagesValues {
  rows: PageRow[];
  rule: PageRuleType | 'none';
  ruleText: string;
  /** For a rule on a value: its name, and `than` or `to` as typed. */
  ruleValue: string;
  ruleOperand: string;
}

/** The most values a task's pages read in all. */
export const MAX_VALUES = 10;

/** The most pages a task watches (docs/pages.md, "Pages on a task"). */
export const MAX_PAGES = 10;

let nextKey = 0;

export function pageValueRow(value: PageValueTarget): PageValueRow {
  return {
    key: nextKey++,
    name: value.name,
    from: value.from,
    selector: value.selector ?? '',
    path: value.path ?? '',
  };
}

export function pageRow(page: PageTarget): PageRow {
  return {
    key: nextKey++,
    url: page.url,
    selector: page.selector ?? '',
    headers: page.headers ?? {},
    items: page.items !== undefined,
    itemsSelector: page.items?.selector ?? '',
    values: (page.values ?? []).map(pageValueRow),
    browser: page.render === 'browser',
    waitFor: page.wait_for ?? '',
  };
}

export function pagesValuesOf(task: Pick<Task, 'pages' | 'page_rule'> | null): PagesValues {
  const rule = task?.page_rule;
  const operand = rule?.than ?? rule?.to;
  return {
    rows: (task?.pages ?? []).map(pageRow),
    rule: rule?.type ?? 'none',
    ruleText: rule?.text ?? '',
    ruleValue: rule?.value ?? '',
    ruleOperand: operand === undefined ? '' : String(operand),
  };
}

/** The names of the values the form's pages read, in their order. */
export function valueNames(values: PagesValues): string[] {
  return values.rows.flatMap((row) =>
    row.values.map((value) => value.name.trim()).filter((name) => name !== ''),
  );
}

function valueBody(value: PageValueRow): PageValueTarget {
  return {
    name: value.name.trim(),
    from: value.from,
    ...(value.selector.trim() === '' ? {} : { selector: value.selector.trim() }),
    ...(value.from === 'json' ? { path: value.path.trim() } : {}),
  };
}

/**
 * What `equals` compares with, from what was typed: a number for a value read as a number, `true`
 * or `false` and numbers as they are for a JSON value, text otherwise.
 */
function equalsOperand(values: PagesValues): string | number | boolean {
  const typed = values.ruleOperand.trim();
  const from = values.rows
    .flatMap((row) => row.values)
    .find((value) => value.name.trim() === values.ruleValue)?.from;
  if (from === 'number' || from === 'price') return Number(typed);
  if (from === 'json' && typed !== '') {
    if (typed === 'true' || typed === 'false') return typed === 'true';
    if (Number.isFinite(Number(typed))) return Number(typed);
  }
  return values.ruleOperand;
}

function ruleBody(values: PagesValues): PageRule | null {
  switch (values.rule) {
    case 'none':
      return null;
    case 'changed':
    case 'new_items':
      return { type: values.rule };
    case 'contains':
    case 'not_contains':
      return { type: values.rule, text: values.ruleText };
    case 'below':
    case 'above':
      return {
        type: values.rule,
        value: values.ruleValue,
        than: Number(values.ruleOperand.trim() === '' ? NaN : values.ruleOperand),
      };
    case 'equals':
      return { type: 'equals', value: values.ruleValue, to: equalsOperand(values) };
  }
}

/** The form's pages (rows without a URL left out) and page rule: null for none. */
export function pagesBody(values: PagesValues): {
  pages: PageTarget[] | null;
  page_rule: PageRule | null;
} {
  const pages = values.rows
    .filter((page) => page.url.trim() !== '')
    .map((page) => ({
      url: page.url.trim(),
      ...(page.selector.trim() === '' ? {} : { selector: page.selector.trim() }),
      ...(Object.keys(page.headers).length === 0 ? {} : { headers: page.headers }),
      ...(page.items ? { items: itemsOf(page.itemsSelector) } : {}),
      ...(page.values.length === 0 ? {} : { values: page.values.map(valueBody) }),
      ...(page.browser ? { render: 'browser' as const } : {}),
      ...(page.browser && page.waitFor.trim() !== '' ? { wait_for: page.waitFor.trim() } : {}),
    }));
  return { pages: pages.length === 0 ? null : pages, page_rule: ruleBody(values) };
}

function itemsOf(selector: string): NonNullable<PageTarget['items']> {
  return selector.trim() === '' ? {} : { selector: selector.trim() };
}
