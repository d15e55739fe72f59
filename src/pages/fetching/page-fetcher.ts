import { Inject, Injectable } from '@nestjs/common';
import { OutboundErrorCode } from '../../common/outbound/outbound-error-code';
import {
  OutboundError,
  OutboundHttpClient,
  type OutboundResponse,
} from '../../common/outbound/outbound-http.client';
import { httpStatusError, PageErrorForm } from '../page-errors';
import type { PageTarget } from '../page.types';

/** Every hop of one page, from its first request to its last byte (docs/pages.md, "Fetching"). */
export const PAGE_FETCH_TIMEOUT_MS = 15_000;
/**
 * Once a page's body begins, at least this much of it (as sent) arrives in every window, or the
 * page is `timed out` then: a server that trickles its body a few bytes a second holds a page
 * slot for one window, not for the whole deadline (docs/pages.md, "Fetching").
 */
export const PAGE_MIN_BODY_RATE = { bytes: 5_000, windowMs: 5_000 };
/** A page's body is read up to this many bytes (after decompression), then reading stops. */
export const MAX_PAGE_BYTES = 5_000_000;
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const ACCEPT = 'text/html, application/xhtml+xml, application/json, text/plain;q=0.9, */*;q=0.1';
/** Set by the service on every request; a page's own headers cannot replace them. */
const OWN_HEADERS = new Set(['user-agent', 'if-none-match', 'if-modified-since']);

export const PAGE_FETCH_OPTIONS = Symbol('page fetch options');

export interface PageFetchOptions {
  /** `TaskMonitor/<version> (+<PUBLIC_URL>)` */
  userAgent: string;
  timeoutMs: number;
}

/** The validators of the page's last good fetch. */
export interface PageValidators {
  etag?: string;
  lastModified?: string;
}

/** An answer's body as it came, with what its headers say about it. */
export interface PageBody {
  /** The media type, lower-case, without parameters. */
  contentType: string;
  charset?: string;
  body: Buffer;
}

export type PageFetchResult =
  | { kind: 'not_modified'; httpStatus: 304; finalUrl: string }
  | ({
      kind: 'body';
      httpStatus: number;
      finalUrl: string;
      etag?: string;
      lastModified?: string;
    } & PageBody)
  | {
      kind: 'error';
      error: string;
      httpStatus?: number;
      finalUrl?: string;
      /** The body of an answer with a status other than 2xx and 304, to tell a bot check. */
      answer?: PageBody;
    };

/**
 * Fetches pages users name (docs/pages.md, "Fetching") through the one outbound client: GET,
 * its redirects followed here (the client follows none) so the SSRF guard checks the address of
 * every hop, one deadline for all hops, the body capped. A page's own failure is a result,
 * never an exception. Holds no database connection.
 */
@Injectable()
export class PageFetcher {
  constructor(
    private readonly http: OutboundHttpClient,
    @Inject(PAGE_FETCH_OPTIONS) private readonly options: PageFetchOptions,
  ) {}

  /** One page, its redirects followed, within one deadline that starts now. */
  async fetchPage(page: PageTarget, previous: PageValidators = {}): Promise<PageFetchResult> {
    const deadline = Date.now() + this.options.timeoutMs;
    const origin = new URL(page.url).origin;
    let url = page.url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const remainingMs = deadline - Date.now();
      if (remainingMs <= 0) return { kind: 'error', error: PageErrorForm.TIMED_OUT, finalUrl: url };
      let response: OutboundResponse;
      try {
        response = await this.http.request({
          destination: 'user',
          method: 'GET',
          url,
          headers: this.headersFor(page, new URL(url).origin === origin, previous),
          timeoutMs: remainingMs,
          response: 'bytes',
          maxResponseBytes: MAX_PAGE_BYTES,
          minBodyRate: PAGE_MIN_BODY_RATE,
        });
      } catch (error) {
        return { kind: 'error', error: failureForm(error), finalUrl: url };
      }
      const next = redirectTarget(response, url);
      if (next === null) return answerOf(response, url);
      url = next;
    }
    return { kind: 'error', error: PageErrorForm.TOO_MANY_REDIRECTS, finalUrl: url };
  }

  /** The page's own headers go to its own origin only: a redirect elsewhere gets none of them. */
  private headersFor(
    page: PageTarget,
    sameOrigin: boolean,
    previous: PageValidators,
  ): Record<string, string> {
    const own = sameOrigin
      ? Object.entries(page.headers ?? {}).filter(([name]) => !OWN_HEADERS.has(name.toLowerCase()))
      : [];
    const hasAccept = own.some(([name]) => name.toLowerCase() === 'accept');
    return {
      ...(hasAccept ? {} : { accept: ACCEPT }),
      ...Object.fromEntries(own),
      'user-agent': this.options.userAgent,
      ...(previous.etag ? { 'if-none-match': previous.etag } : {}),
      ...(previous.lastModified ? { 'if-modified-since': previous.lastModified } : {}),
    };
  }
}

/** The next hop's URL, or null when the answer is not a redirect that can be followed. */
function redirectTarget(response: OutboundResponse, url: string): string | null {
  const location = response.header('location');
  if (!REDIRECT_STATUSES.has(response.status) || !location) return null;
  let next: URL;
  try {
    next = new URL(location, url);
  } catch {
    return null;
  }
  return next.protocol === 'http:' || next.protocol === 'https:' ? next.href : null;
}

function answerOf(response: OutboundResponse, finalUrl: string): PageFetchResult {
  if (response.status === 304) return { kind: 'not_modified', httpStatus: 304, finalUrl };
  const body = { ...parseContentType(response.header('content-type')), body: response.bytes };
  if (response.status < 200 || response.status >= 300) {
    const error = httpStatusError(response.status);
    return { kind: 'error', error, httpStatus: response.status, finalUrl, answer: body };
  }
  const etag = response.header('etag');
  const lastModified = response.header('last-modified');
  return {
    kind: 'body',
    httpStatus: response.status,
    finalUrl,
    ...body,
    ...(etag ? { etag } : {}),
    ...(lastModified ? { lastModified } : {}),
  };
}

/** A missing type is `application/octet-stream`, as HTTP lets a recipient assume. */
export function parseContentType(header: string | undefined): Omit<PageBody, 'body'> {
  const [type, ...parameters] = (header ?? '').split(';');
  const contentType = type.trim().toLowerCase() || 'application/octet-stream';
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=');
    if (name.trim().toLowerCase() === 'charset' && value) {
      const charset = value.trim().replace(/^"|"$/g, '');
      if (charset) return { contentType, charset };
    }
  }
  return { contentType };
}

function failureForm(error: unknown): string {
  if (!(error instanceof OutboundError)) return PageErrorForm.CONNECTION_FAILED;
  switch (error.code) {
    case OutboundErrorCode.BLOCKED:
      return PageErrorForm.ADDRESS_NOT_ALLOWED;
    case OutboundErrorCode.TIMEOUT:
      return PageErrorForm.TIMED_OUT;
    case OutboundErrorCode.TOO_LARGE:
      return PageErrorForm.TOO_LARGE;
    default:
      return PageErrorForm.CONNECTION_FAILED;
  }
}
