/** The pages and page rule of the task form, and the request body they make. */
import type { PageRule, PageRuleType, PageTarget, Task } from './types';

export interface PageRow {
  key: number;
  url: string;
  selector: string;
  headers: Record<string, string>;
  /** Loaded in a browser (`render: "browser"`), with the selector it waits for, if any. */
  browser: boolean;
  waitFor: string;
}

/** The pages a task watches and its page rule, as the form edits them. */
export interface PagesValues {
  rows: PageRow[];
  rule: PageRuleType | 'none';
  ruleText: string;
}

/** The most pages a task watches (docs/pages.md, "Pages on a task"). */
export const MAX_PAGES = 10;

let nextKey = 0;

export function pageRow(page: PageTarget): PageRow {
  return {
    key: nextKey++,
    url: page.url,
    selector: page.selector ?? '',
    headers: page.headers ?? {},
    browser: page.render === 'browser',
    waitFor: page.wait_for ?? '',
  };
}

export function pagesValuesOf(task: Pick<Task, 'pages' | 'page_rule'> | null): PagesValues {
  return {
    rows: (task?.pages ?? []).map(pageRow),
    rule: task?.page_rule?.type ?? 'none',
    ruleText: task?.page_rule?.text ?? '',
  };
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
      ...(page.browser ? { render: 'browser' as const } : {}),
      ...(page.browser && page.waitFor.trim() !== '' ? { wait_for: page.waitFor.trim() } : {}),
    }));
  return {
    pages: pages.length === 0 ? null : pages,
    page_rule:
      values.rule === 'none'
        ? null
        : values.rule === 'changed'
          ? { type: 'changed' }
          : { type: values.rule, text: values.ruleText },
  };
}
