import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { WebhookNotificationConfig } from '../tasks/task.entity';
import { failedAttempt, SUCCEEDED, type AttemptOutcome } from './attempt-outcome';
import {
  BlockedDestinationError,
  resolveAllowedAddress,
  type ResolvedAddress,
} from './network-guard';
import { RESERVED_WEBHOOK_HEADERS } from './notification-config.validator';
import { signWebhook } from './webhook-signature';

/** Contract section 2, "Webhook delivery": a receiver has 15 s to answer. */
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

type PinnedLookup = NonNullable<AxiosRequestConfig['lookup']>;

/**
 * Sends one signed webhook attempt (Standard Webhooks). Connections are kept alive and reused
 * per host, which is what lets one process deliver thousands of webhooks a second.
 */
@Injectable()
export class WebhookChannelService implements OnApplicationShutdown {
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  private readonly httpsAgent = new HttpsAgent({
    keepAlive: true,
    maxSockets: 256,
    maxFreeSockets: 64,
  });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

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

    // SSRF guard at delivery time too: the host is resolved and checked here, and the connection
    // goes to exactly that address, so a DNS answer that changes after the check (rebinding)
    // cannot send the request elsewhere. Host header and TLS SNI keep the hostname.
    let lookup: PinnedLookup | undefined;
    if (!this.config.webhookAllowPrivateNetworks) {
      try {
        lookup = pinnedLookup(await resolveAllowedAddress(url.hostname, false));
      } catch (error) {
        if (error instanceof BlockedDestinationError) {
          return failedAttempt(`Refused: ${error.message}`, false);
        }
        return failedAttempt(`DNS lookup of ${url.hostname} failed: ${describe(error)}`, true);
      }
    }

    const timestamp = Math.floor(now.getTime() / 1000);
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      ...configuredHeaders(target.headers),
      'content-type': 'application/json',
      'webhook-id': webhookId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(target.secret, webhookId, timestamp, body),
    };

    try {
      const response = await axios.request<Readable>({
        url: url.href,
        method: target.method,
        data: body,
        headers,
        // The body is already JSON text: sent byte for byte as signed.
        transformRequest: [(data: unknown) => data],
        responseType: 'stream',
        decompress: false,
        validateStatus: () => true,
        // A redirect is a failure: following it would send the payload to an unchecked host.
        maxRedirects: 0,
        // Straight to the checked address, never through a proxy from the environment.
        proxy: false,
        timeout: WEBHOOK_TIMEOUT_MS,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        httpAgent: this.httpAgent,
        httpsAgent: this.httpsAgent,
        ...(lookup ? { lookup } : {}),
      });
      await discardBody(response.data);
      const status = response.status;
      if (status >= 200 && status < 300) return SUCCEEDED;
      if (status === 410) return failedAttempt('HTTP 410 (Gone): retries stopped', false);
      if (status >= 300 && status < 400) {
        return failedAttempt(`HTTP ${status} (redirects are not followed)`, true);
      }
      return failedAttempt(`HTTP ${status}`, true);
    } catch (error) {
      return failedAttempt(networkError(error), true);
    }
  }
}

/** Configured headers minus the ones the service controls, compared without case. */
function configuredHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) continue;
    if (CONTROLLED_HEADERS.has(name.toLowerCase())) continue;
    result[name] = value;
  }
  return result;
}

function pinnedLookup(resolved: ResolvedAddress): PinnedLookup {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      callback(null, [{ address: resolved.address, family: resolved.family }]);
    } else {
      callback(null, { address: resolved.address, family: resolved.family });
    }
  };
}

/** Reads what the receiver sent so the connection can be reused; drops it past a size cap. */
function discardBody(stream: Readable): Promise<void> {
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

function networkError(error: unknown): string {
  if (error instanceof AxiosError || (error instanceof Error && 'code' in error)) {
    const code = (error as { code?: string }).code;
    switch (code) {
      case 'ECONNABORTED':
      case 'ETIMEDOUT':
      case 'ERR_CANCELED':
      case 'ABORT_ERR':
        return `Timed out after ${WEBHOOK_TIMEOUT_MS / 1000} s`;
      case 'ECONNREFUSED':
        return 'Connection refused (ECONNREFUSED)';
      case 'ECONNRESET':
        return 'Connection reset by the receiver (ECONNRESET)';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `Host not found (${code})`;
      default:
        if (code) return `${describe(error)} (${code})`;
    }
  }
  return describe(error);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
