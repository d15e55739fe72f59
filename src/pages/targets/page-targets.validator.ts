import { BadRequestException, Injectable } from '@nestjs/common';
import { headerProblem } from '../../common/http/header-problem';
import { BlockedDestinationError } from '../../common/outbound/network-guard';
import { OutboundHttpClient } from '../../common/outbound/outbound-http.client';
import { InjectConfig } from '../../config/config-slice';
import { browserConfig, hasBrowser, type BrowserConfig } from '../browser/browser.config';
import { MAX_PAGES, type PageRender, type PageTarget } from '../page.types';
import { selectorProblem } from '../reading/page-selector';
import { checkTaskValues, pageValueTargets } from '../values/page-values.validator';

const MAX_URL_CHARS = 2048;
const MAX_SELECTOR_CHARS = 200;
const MAX_PAGE_HEADERS = 10;
/** HTTP itself sets these; a page may not. */
const REFUSED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
const FIELDS = new Set(['url', 'selector', 'headers', 'items', 'values', 'render', 'wait_for']);
const RENDERS: readonly PageRender[] = ['http', 'browser'];

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid pages: ${reason}`);
}

/**
 * The SSRF guard of a task's `pages` (docs/pages.md, "Pages on a task"): every host resolved as
 * fetches will resolve it, after `pageTargets` has read their shape. 400 `Invalid pages: ...`
 * otherwise.
 */
@Injectable()
export class PageTargetsValidator {
  constructor(
    private readonly http: OutboundHttpClient,
    @InjectConfig(browserConfig) private readonly browser: BrowserConfig,
  ) {}

  /**
   * The SSRF guard for the hosts of pages whose shape `pageTargets` has read, after a browser
   * for those that need one.
   */
  async checkHosts(pages: readonly PageTarget[]): Promise<void> {
    const needsBrowser = pages.findIndex((page) => page.render === 'browser');
    if (needsBrowser >= 0 && !hasBrowser(this.browser)) {
      throw invalid(
        `pages[${needsBrowser}].render: no browser is configured (set BROWSER_WS_ENDPOINT or CHROMIUM_PATH)`,
      );
    }
    const hosts = [...new Set(pages.map((page) => new URL(page.url).hostname))];
    await Promise.all(hosts.map((host) => this.checkHost(host)));
  }

  private async checkHost(host: string): Promise<void> {
    try {
      await this.http.resolveUserHost(host);
    } catch (error) {
      if (error instanceof BlockedDestinationError) throw invalid(`url ${error.message}`);
      throw invalid(`url host ${host} could not be resolved`);
    }
  }
}

/** The shape of `pages`, without looking up any host. */
export function pageTargets(value: unknown): PageTarget[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_PAGES) {
    throw invalid(`must be a list of 1 to ${MAX_PAGES} pages`);
  }
  const pages = value.map((entry, index) => pageTarget(entry, `pages[${index}]`));
  const seen = new Set<string>();
  for (const page of pages) {
    if (seen.has(page.url)) throw invalid(`${page.url} is listed twice`);
    seen.add(page.url);
  }
  checkTaskValues(pages);
  return pages;
}

function pageTarget(entry: unknown, at: string): PageTarget {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw invalid(`${at} must be an object with a url`);
  }
  const fields = entry as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => !FIELDS.has(name));
  if (unknown !== undefined) throw invalid(`${at} has an unknown field ${unknown}`);
  const selector = pageSelector(fields.selector, at);
  const headers = pageHeaders(fields.headers, at);
  const items = pageItems(fields.items, at, selector);
  const values = pageValueTargets(fields.values, at, checkedSelector);
  const render = pageRender(fields, at);
  return {
    url: pageUrl(fields.url, at),
    ...(selector === undefined ? {} : { selector }),
    ...(headers === undefined ? {} : { headers }),
    ...(items === undefined ? {} : { items }),
    ...(values === undefined ? {} : { values }),
    ...render,
  };
}

/** `render` and, with `browser`, `wait_for` (docs/pages.md, "Pages that need a browser"). */
function pageRender(
  fields: Record<string, unknown>,
  at: string,
): Pick<PageTarget, 'render' | 'wait_for'> {
  const render = fields.render ?? undefined;
  if (render !== undefined && !RENDERS.includes(render as PageRender)) {
    throw invalid(`${at}.render must be "http" or "browser"`);
  }
  const waitFor = fields.wait_for ?? undefined;
  if (waitFor === undefined) return render === undefined ? {} : { render: render as PageRender };
  if (render !== 'browser') throw invalid(`${at}.wait_for needs render "browser"`);
  return { render, wait_for: checkedSelector(waitFor, `${at}.wait_for`) };
}

/** The URL as WHATWG parsing writes it, so two spellings of one URL compare equal. */
function pageUrl(value: unknown, at: string): string {
  if (typeof value !== 'string' || value.length > MAX_URL_CHARS) {
    throw invalid(`${at}.url must be an http or https URL of at most ${MAX_URL_CHARS} characters`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${at}.url must be an http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`${at}.url must be an http or https URL`);
  }
  if (url.username || url.password) {
    throw invalid(`${at}.url must not contain credentials; use headers instead`);
  }
  if (url.href.length > MAX_URL_CHARS) {
    throw invalid(`${at}.url must be at most ${MAX_URL_CHARS} characters`);
  }
  return url.href;
}

function pageSelector(value: unknown, at: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  return checkedSelector(value, `${at}.selector`);
}

/**
 * A CSS selector of a page (docs/pages.md, "Selectors"): at most 200 characters, in the subset
 * that reads a page in linear time. 400 `Invalid pages: <field>: <reason>` otherwise.
 */
export function checkedSelector(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_SELECTOR_CHARS) {
    throw invalid(`${field}: must be a CSS selector of 1 to ${MAX_SELECTOR_CHARS} characters`);
  }
  const problem = selectorProblem(value);
  if (problem !== null) throw invalid(`${field}: ${problem}`);
  return value;
}

/**
 * A page's `items` (docs/pages.md, "Items and feeds"): an object with an optional `selector`,
 * which reads the page's HTML list in place of the page's own `selector`.
 */
function pageItems(
  value: unknown,
  at: string,
  pageSelector: string | undefined,
): PageTarget['items'] {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(`${at}.items must be an object with an optional selector`);
  }
  const { selector, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw invalid(`${at}.items has an unknown field ${unknown}`);
  if (pageSelector !== undefined) {
    throw invalid(`${at}.items cannot be combined with selector; use items.selector`);
  }
  if (selector === undefined || selector === null) return {};
  return { selector: checkedSelector(selector, `${at}.items.selector`) };
}

function pageHeaders(value: unknown, at: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(`${at}.headers must map header names to string values`);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_PAGE_HEADERS) {
    throw invalid(`${at}.headers may hold at most ${MAX_PAGE_HEADERS} headers`);
  }
  for (const [name, headerValue] of entries) {
    const problem = headerProblem(name, headerValue);
    if (problem) throw invalid(`${at}.headers: ${problem}`);
    if (REFUSED_HEADERS.has(name.toLowerCase()))
      throw invalid(`${at}.headers: header '${name}' is not allowed`);
  }
  return Object.fromEntries(entries) as Record<string, string>;
}
