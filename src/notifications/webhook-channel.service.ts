import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { WebhookNotificationConfig } from '../tasks/task.entity';
import { failedAttempt, SUCCEEDED, type AttemptOutcome } from './attempt-outcome';
import { MAX_DELIVERIES_IN_FLIGHT } from './delivery-job';
import { HostResolver } from './host-resolver';
import { BlockedDestinationError, type ResolvedAddress } from './network-guard';
import { headerProblem, RESERVED_WEBHOOK_HEADERS } from './notification-config.validator';
import { signWebhook } from './webhook-signature';

/**
 * Contract section 2, "Webhook delivery": an attempt (DNS lookup, connection, answer and reading
 * the body) has 15 s.
 */
export const WEBHOOK_TIMEOUT_MS = 15_000;
/** At most this much of a response body is read (and thrown away) before the socket is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'TaskMonitor-Webhooks/1.0';
/** Set by the service or by Node itself: configured headers never replace them. */
const CONTROLLED_HEADERS = new Set([
  ...RESERVED_WEBHOOK_HEADERS,
  'connection',
  'transfer-encoding',
  'keep-alive',
  'te',
  'upgrade',
  'expect',
]);

// At most 256 connections to one receiver; as many idle ones kept as may be busy, so a burst of
// deliveries to one receiver reuses every connection instead of opening most of them again.
const SOCKETS_PER_HOST = Math.min(256, MAX_DELIVERIES_IN_FLIGHT);
const AGENT_OPTIONS = {
  keepAlive: true,
  maxSockets: SOCKETS_PER_HOST,
  maxFreeSockets: SOCKETS_PER_HOST,
  scheduling: 'lifo' as const,
};

type HttpResult = { status: number } | { error: Error; reusedSocket: boolean };

/**
 * Sends one signed webhook attempt (Standard Webhooks) with Node's own HTTP client. axios, tried
 * here first, cost as much CPU per request as everything else in a delivery together (measured: about 0.85 ms against 0.4 ms per request, and 0.8 to 0.9 ms
 * against 0.45 ms of service CPU per delivery in bench/notifications-bench.ts), which kept one
 * instance under 1,000 deliveries a second on two cores. Node's client also never follows
 * redirects and never picks up a proxy from the environment, which is what a webhook needs.
 */
@Injectable()
export class WebhookChannelService implements OnApplicationShutdown {
  private readonly httpAgent = new HttpAgent(AGENT_OPTIONS);
  private readonly httpsAgent = new HttpsAgent(AGENT_OPTIONS);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hosts: HostResolver,
  ) {}

  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  async deliverWebhook(
    target: WebhookNotificationConfig,
    body: string,
    webhookId: string,
    now: Date = new Date(),
  ): Promise<AttemptOutcome> {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return failedAttempt('Invalid webhook URL', false);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return failedAttempt('Invalid webhook URL: only http and https are supported', false);
    }

    const headers = configuredHeaders(target.headers);
    // A config stored before headers were validated: HTTP would refuse it on every attempt.
    if (typeof headers === 'string')
      return failedAttempt(`Invalid webhook config: ${headers}`, false);

    const deadline = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
    // The host is resolved here (within the deadline, off the thread pool) and the connection
    // goes to exactly that address; with the SSRF guard on, the address is checked first, so a
    // DNS answer that changes after the check (rebinding) cannot send the request elsewhere.
    // Host header and TLS SNI keep the hostname.
    let resolved: ResolvedAddress;
    try {
      resolved = await this.hosts.resolveAllowed(
        url.hostname,
        this.config.webhookAllowPrivateNetworks,
      );
    } catch (error) {
      if (error instanceof BlockedDestinationError) {
        return failedAttempt(`Refused: ${error.message}`, false);
      }
      return failedAttempt(`DNS lookup of ${url.hostname} failed: ${describe(error)}`, true);
    }

    const timestamp = Math.floor(now.getTime() / 1000);
    const payload = Buffer.from(body);
    const options: RequestOptions = {
      method: target.method,
      headers: {
        'user-agent': USER_AGENT,
        ...headers,
        'content-type': 'application/json',
        'content-length': String(payload.length),
        'webhook-id': webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(target.secret, webhookId, timestamp, body),
      },
      agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
      lookup: pinnedLookup(resolved),
      signal: deadline,
    };

    let result = await this.send(url, options, payload);
    // A kept-alive connection the receiver closed just as it was reused: the request never got
    // there, so it goes once more on a fresh connection (Node's documented pattern).
    if ('error' in result && result.reusedSocket && isStaleSocketError(result.error)) {
      result = await this.send(url, options, payload);
    }
    if ('error' in result) return failedAttempt(networkError(result.error), true);
    const status = result.status;
    if (status >= 200 && status < 300) return SUCCEEDED;
    if (status === 410) return failedAttempt('HTTP 410 (Gone): retries stopped', false);
    if (status >= 300 && status < 400) {
      // A redirect is a failure: following it would send the payload to an unchecked host.
      return failedAttempt(`HTTP ${status} (redirects are not followed)`, true);
    }
    return failedAttempt(`HTTP ${status}`, true);
  }

  /** One request under the attempt's deadline (`options.signal`). */
  private send(url: URL, options: RequestOptions, payload: Buffer): Promise<HttpResult> {
    return new Promise((resolve) => {
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        options,
        (response: IncomingMessage) => {
          const status = response.statusCode ?? 0;
          void discardBody(response).then(() => resolve({ status }));
        },
      );
      request.once('error', (error: Error) =>
        resolve({ error, reusedSocket: request.reusedSocket }),
      );
      request.end(payload);
    });
  }
}

/**
 * Configured headers minus the ones the service controls (compared without case), or why one
 * of them cannot be sent.
 */
function configuredHeaders(
  headers: Record<string, string> | undefined,
): Record<string, string> | string {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const problem = headerProblem(name, value);
    if (problem) return problem;
    if (CONTROLLED_HEADERS.has(name.toLowerCase())) continue;
    result[name] = value;
  }
  return result;
}

function pinnedLookup(resolved: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      callback(null, [{ address: resolved.address, family: resolved.family }]);
    } else {
      callback(null, resolved.address, resolved.family);
    }
  };
}

/** Reads what the receiver sent so the connection can be reused; drops it past a size cap. */
function discardBody(stream: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = (): void => resolve();
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > MAX_RESPONSE_BYTES) {
        stream.destroy();
        done();
      }
    });
    stream.once('end', done);
    stream.once('close', done);
    stream.once('error', done);
  });
}

function isStaleSocketError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

function networkError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || code === 'ABORT_ERR') {
    return `Timed out after ${WEBHOOK_TIMEOUT_MS / 1000} s`;
  }
  switch (code) {
    case 'ETIMEDOUT':
      return `Timed out after ${WEBHOOK_TIMEOUT_MS / 1000} s`;
    case 'ECONNREFUSED':
      return 'Connection refused (ECONNREFUSED)';
    case 'ECONNRESET':
      return 'Connection reset by the receiver (ECONNRESET)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Host not found (${code})`;
    default:
      return code ? `${error.message} (${code})` : error.message;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
