import { errors, type BrowserContext, type Page, type Response, type Route } from 'playwright-core';
import { withDeadline } from '../../common/clock/deadline';
import { MAX_PAGE_BYTES, type PageFetchResult } from '../fetching/page-fetcher';
import { httpStatusError, PageErrorForm } from '../page-errors';
import type { PageTarget } from '../page.types';
import type { EgressListener } from './egress-proxy';

/**
 * WebRTC reaches addresses over UDP, past the egress proxy: a page gets no peer connections, in
 * whatever browser it loads (a browser service is not started with the service's own flags).
 */
const WITHOUT_PEER_CONNECTIONS =
  'for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel"]) ' +
  'delete globalThis[name];';

/** A browser page loads and settles within this long (docs/pages.md, "Pages that need a browser"). */
export const BROWSER_PAGE_TIMEOUT_MS = 30_000;
const VIEWPORT = { width: 1280, height: 800 };
/** Schemes a browser page may request; anything else is aborted. */
const SCHEMES = new Set(['http:', 'https:', 'data:', 'blob:']);
/** The service sets it; a page's own headers cannot replace it. */
const USER_AGENT_HEADER = 'user-agent';

/** What a browser read of a page gave: the document as fetched, and the viewport when good. */
export interface BrowserRead {
  fetched: PageFetchResult;
  screenshot: Buffer | null;
}

/** Why a browser read stopped, in the page's short fixed form. */
class BrowserReadError extends Error {}

/**
 * One page in a fresh context of `context`'s browser: JavaScript on, a 1280 x 800 viewport, the
 * service's User-Agent, every request through `egress` (the SSRF guard), the page's headers to its
 * own origin only, schemes other than http, https, data and blob aborted, pop-ups closed. Read
 * once `load` fired and then `wait_for` matched or the network was idle for 500 ms, all within
 * BROWSER_PAGE_TIMEOUT_MS; the DOM serialised to HTML is the page's document.
 */
export async function loadInBrowser(
  context: BrowserContext,
  page: PageTarget,
  egress: EgressListener,
  deadline: number,
): Promise<BrowserRead> {
  const origin = new URL(page.url).origin;
  const headers = Object.entries(page.headers ?? {}).filter(
    ([name]) => name.toLowerCase() !== USER_AGENT_HEADER,
  );
  await context.route('**/*', (route) => routeRequest(route, origin, headers, deadline));
  await context.addInitScript(WITHOUT_PEER_CONNECTIONS);
  const tab = await context.newPage();
  context.on('page', (popup) => {
    if (popup !== tab) void popup.close().catch(() => undefined);
  });
  /** The main document's requests and its last response, redirects and later navigations included. */
  let lastDocumentUrl = page.url;
  let lastDocument: Response | null = null;
  tab.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === tab.mainFrame()) {
      lastDocumentUrl = request.url();
    }
  });
  tab.on('response', (response) => {
    if (response.request().isNavigationRequest() && response.frame() === tab.mainFrame()) {
      lastDocument = response;
    }
  });
  const left = () => Math.max(1, deadline - Date.now());
  const failure = (error: unknown, timedOut: string): BrowserRead => {
    if (egress.refused(lastDocumentUrl)) return failed(PageErrorForm.ADDRESS_NOT_ALLOWED);
    if (error instanceof BrowserReadError) return failed(error.message);
    if (!context.browser()?.isConnected()) return failed(PageErrorForm.BROWSER_FAILED);
    if (error instanceof errors.TimeoutError) return failed(timedOut);
    return failed(PageErrorForm.CONNECTION_FAILED);
  };
  try {
    await tab.goto(page.url, { waitUntil: 'load', timeout: left() });
  } catch (error) {
    return failure(error, PageErrorForm.TIMED_OUT);
  }
  try {
    if (page.wait_for === undefined) {
      await tab.waitForLoadState('networkidle', { timeout: left() });
    } else {
      await tab.waitForSelector(`css=${page.wait_for}`, { state: 'attached', timeout: left() });
    }
  } catch (error) {
    return failure(
      error,
      page.wait_for === undefined
        ? PageErrorForm.TIMED_OUT
        : PageErrorForm.WAIT_FOR_MATCHED_NOTHING,
    );
  }
  try {
    return await withDeadline(
      readDocument(tab, lastDocument, lastDocumentUrl, egress),
      left(),
      () => {
        throw new BrowserReadError(PageErrorForm.TIMED_OUT);
      },
    );
  } catch (error) {
    return failure(error, PageErrorForm.TIMED_OUT);
  }
}

/** The document as the browser holds it, with its status, and the viewport of a good one. */
async function readDocument(
  tab: Page,
  response: Response | null,
  documentUrl: string,
  egress: EgressListener,
): Promise<BrowserRead> {
  if (egress.refused(documentUrl)) return failed(PageErrorForm.ADDRESS_NOT_ALLOWED);
  if (response === null) return failed(PageErrorForm.CONNECTION_FAILED);
  const body = Buffer.from(await tab.content(), 'utf8');
  if (body.length > MAX_PAGE_BYTES) return failed(PageErrorForm.TOO_LARGE);
  const document = { contentType: 'text/html', charset: 'utf-8', body };
  const httpStatus = response.status();
  const finalUrl = tab.url();
  if (httpStatus < 200 || httpStatus >= 300) {
    const error = httpStatusError(httpStatus);
    return {
      fetched: { kind: 'error', error, httpStatus, finalUrl, answer: document },
      screenshot: null,
    };
  }
  const screenshot = await tab.screenshot({ type: 'png' });
  return { fetched: { kind: 'body', httpStatus, finalUrl, ...document }, screenshot };
}

/**
 * Aborts other schemes; sends the page's headers with requests to its own origin. Those are
 * fetched here, through the context's proxy, without following redirects: Chromium would carry
 * headers given to a request on to every hop of its redirects, whatever their origin, while the
 * browser, following the redirect it is handed, asks the next hop afresh.
 */
async function routeRequest(
  route: Route,
  origin: string,
  headers: ReadonlyArray<[string, string]>,
  deadline: number,
): Promise<void> {
  const request = route.request();
  let url: URL;
  try {
    url = new URL(request.url());
  } catch {
    return route.abort('blockedbyclient');
  }
  if (!SCHEMES.has(url.protocol)) return route.abort('blockedbyclient');
  if (headers.length === 0 || url.origin !== origin) return route.continue();
  try {
    const response = await route.fetch({
      headers: { ...request.headers(), ...Object.fromEntries(headers) },
      maxRedirects: 0,
      timeout: Math.max(1, deadline - Date.now()),
    });
    await route.fulfill({ response });
  } catch {
    await route.abort('failed').catch(() => undefined);
  }
}

export function failed(error: string): BrowserRead {
  return { fetched: { kind: 'error', error }, screenshot: null };
}

export const BROWSER_CONTEXT_OPTIONS = {
  viewport: VIEWPORT,
  javaScriptEnabled: true,
  acceptDownloads: false,
  serviceWorkers: 'block',
  permissions: [] as string[],
} as const;
