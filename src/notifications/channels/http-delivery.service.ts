import { BadRequestException, Injectable } from '@nestjs/common';
import { BlockedDestinationError } from '../../common/outbound/network-guard';
import { OutboundErrorCode } from '../../common/outbound/outbound-error-code';
import {
  OutboundError,
  OutboundHttpClient,
  type OutboundResponse,
} from '../../common/outbound/outbound-http.client';
import { parseRetryAfterMs } from '../../common/outbound/retry-timing';
import { failedAttempt, SUCCEEDED, type AttemptOutcome } from '../delivery/attempt-outcome';

/**
 * An attempt (DNS lookup, connection, answer and reading the body) has 15 s (docs/api.md,
 * "Notifications").
 */
export const HTTP_DELIVERY_TIMEOUT_MS = 15_000;
/** At most this much of a response body is read (and thrown away) before the socket is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'TaskMonitor-Webhooks/1.0';
/** A `Retry-After` longer than this is capped: the retry schedule's longest step. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60_000;
/** These answers mean the hook is gone or refuses us; retrying cannot help. */
const STOP_STATUSES = new Set([400, 401, 403, 404, 410]);
const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
};

export interface HttpDeliveryRequest {
  url: string;
  method: 'POST' | 'PUT' | 'PATCH';
  /** Content type and length are set here. */
  headers: Record<string, string>;
  contentType: string;
  body: string;
  /**
   * Whether the SSRF guard applies (`WEBHOOK_ALLOW_PRIVATE_NETWORKS`): URLs from users, yes; an
   * API base URL from the operator's own configuration, no.
   */
  guarded: boolean;
}

/**
 * What an HTTP channel's attempt means (docs/api.md, "Notifications"), on the shared outbound
 * client: the SSRF guard at config time (at delivery the client's agents apply it to the address
 * they connect to), one attempt under a 15 s deadline, and the answer turned into an attempt
 * outcome (2xx success; 429 waits for `Retry-After`; 400, 401, 403, 404 and 410 stop; anything
 * else, redirects included, is retried on the schedule).
 */
@Injectable()
export class HttpDeliveryService {
  constructor(private readonly http: OutboundHttpClient) {}

  /**
   * Config time: `value` must be an http(s) URL without credentials whose host resolves to an
   * allowed address. Returns the normalised URL; throws 400 `Invalid notification: ...`.
   */
  async checkConfigUrl(value: unknown, channel: string): Promise<string> {
    const url = parseConfigUrl(value, channel);
    await this.checkConfigHost(url);
    return url.href;
  }

  /** Config time: the SSRF guard for the URL's host (400 when refused or unresolvable). */
  async checkConfigHost(url: URL): Promise<void> {
    try {
      await this.http.resolveUserHost(url.hostname);
    } catch (error) {
      if (error instanceof BlockedDestinationError) throw invalid(`url ${error.message}`);
      throw invalid(`url host ${url.hostname} could not be resolved`);
    }
  }

  /** One attempt; never throws. Error messages name the host at most, never the path. */
  async send(delivery: HttpDeliveryRequest): Promise<AttemptOutcome> {
    let response: OutboundResponse;
    try {
      response = await this.http.request({
        destination: delivery.guarded ? 'user' : 'notification-service',
        method: delivery.method,
        url: delivery.url,
        headers: {
          'user-agent': USER_AGENT,
          ...delivery.headers,
          'content-type': delivery.contentType,
        },
        body: Buffer.from(delivery.body),
        timeoutMs: HTTP_DELIVERY_TIMEOUT_MS,
        response: 'discard',
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
    } catch (error) {
      if (error instanceof OutboundError) return outcomeOfFailure(error, delivery.url);
      return failedAttempt(error instanceof Error ? error.message : String(error), true);
    }
    return outcomeOfStatus(response.status, response.header('retry-after'));
  }
}

/** What an HTTP answer means for the delivery (docs/api.md). */
export function outcomeOfStatus(
  status: number,
  retryAfter: string | undefined,
  now: number = Date.now(),
): AttemptOutcome {
  if (status >= 200 && status < 300) return SUCCEEDED;
  if (STOP_STATUSES.has(status)) {
    return failedAttempt(`HTTP ${status} (${STATUS_NAMES[status]}): retries stopped`, false);
  }
  if (status === 429) {
    const waitMs = retryAfterMs(retryAfter, now);
    return {
      ...failedAttempt('HTTP 429 (Too Many Requests)', true),
      ...(waitMs === null ? {} : { retryAfterMs: waitMs }),
    };
  }
  if (status >= 300 && status < 400) {
    // A redirect is a failure: following it would send the payload to an unchecked host.
    return failedAttempt(`HTTP ${status} (redirects are not followed)`, true);
  }
  return failedAttempt(`HTTP ${status}`, true);
}

/**
 * A failed exchange is named by its class only (docs/api.md, "Notifications"). A connection that
 * was refused, reset or never opened within the deadline is `connection failed`, a receiver that
 * took the connection and did not answer in time `timed out`: no system error text, so a test send
 * cannot tell a closed port from a filtered one.
 */
export const CONNECTION_FAILED = 'connection failed';
export const TIMED_OUT = 'timed out';

/** What an exchange that got no answer means for the delivery; names the host, never the path. */
export function outcomeOfFailure(error: OutboundError, url: string): AttemptOutcome {
  switch (error.code) {
    case OutboundErrorCode.INVALID_URL:
      return failedAttempt(error.message, false);
    case OutboundErrorCode.BLOCKED:
      return failedAttempt(`Refused: ${error.message}`, false);
    case OutboundErrorCode.DNS:
      return failedAttempt(`DNS lookup of ${new URL(url).hostname} failed: ${error.message}`, true);
    case OutboundErrorCode.TIMEOUT:
    case OutboundErrorCode.CANCELLED:
      return failedAttempt(error.connected ? TIMED_OUT : CONNECTION_FAILED, true);
    default:
      return failedAttempt(CONNECTION_FAILED, true);
  }
}

/** `Retry-After` as seconds or an HTTP date (RFC 9110, 10.2.3), capped; null when unusable. */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | null {
  const waitMs = parseRetryAfterMs(value, now);
  return waitMs === null ? null : Math.min(MAX_RETRY_AFTER_MS, waitMs);
}

/** Config time: the shape of a hook URL (http or https, no credentials, at most 2,048 characters). */
export function parseConfigUrl(value: unknown, channel: string): URL {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(`url is required for ${channel}`);
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw invalid('url must be a valid http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid('url must be a valid http or https URL');
  if (url.username || url.password)
    throw invalid('url must not contain credentials; use headers instead');
  if (url.href.length > 2048) throw invalid('url must be at most 2048 characters');
  return url;
}

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid notification: ${reason}`);
}
