import { BadRequestException, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { headerProblem } from '../../../common/http/header-problem';
import { failedAttempt, type AttemptOutcome } from '../../delivery/attempt-outcome';
import { HttpDeliveryService, parseConfigUrl } from '../http-delivery.service';
import { digestWebhookPayload } from '../../content/digest-content';
import { webhookBody, webhookPayload } from '../../content/webhook-body';
import type { NotificationConfigBase } from '../notification-types';
import {
  defineChannel,
  maskUrl,
  type NotificationChannel,
  type OutgoingDigest,
  type OutgoingNotification,
} from '../notification-channel';
import { signWebhook } from './webhook-signature';

export interface WebhookNotificationConfig extends NotificationConfigBase {
  type: 'webhook';
  url: string;
  method: 'POST' | 'PUT' | 'PATCH';
  headers: Record<string, string>;
  /** Standard Webhooks signing secret (`whsec_...`), shown to the owner only. */
  secret: string;
}

const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;
/** Set by the service on every delivery; a configured header cannot replace them. */
export const RESERVED_WEBHOOK_HEADERS = [
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-type',
  'content-length',
  'host',
];
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
const MAX_HEADERS = 20;

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid notification: ${reason}`);
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Signed webhooks (docs/api.md, "Notifications"; Standard Webhooks). The signing
 * secret is kept when the URL is unchanged and replaced otherwise; a fork gets its own.
 */
@Injectable()
export class WebhookChannel implements NotificationChannel<WebhookNotificationConfig> {
  readonly type = 'webhook';
  /** Each config signs with its own secret: a digest gathers the events of one config. */
  readonly digestsGather = 'config';

  constructor(private readonly http: HttpDeliveryService) {}

  async validate(
    entry: Record<string, unknown>,
    previous: WebhookNotificationConfig | undefined,
  ): Promise<WebhookNotificationConfig> {
    const url = parseConfigUrl(entry.url, 'a webhook');
    const method =
      entry.method === undefined || entry.method === null
        ? 'POST'
        : typeof entry.method === 'string'
          ? entry.method.toUpperCase()
          : '';
    if (!(WEBHOOK_METHODS as readonly string[]).includes(method))
      throw invalid('method must be POST, PUT or PATCH');
    const headers = validHeaders(entry.headers);
    await this.http.checkConfigHost(url);
    const href = url.href;
    return {
      type: 'webhook',
      url: href,
      method: method as WebhookNotificationConfig['method'],
      headers,
      secret: previous && previous.url === href ? previous.secret : generateWebhookSecret(),
    };
  }

  copyForOwnFork(config: WebhookNotificationConfig): WebhookNotificationConfig {
    // A new secret, so the two tasks' deliveries can be told apart and rotated separately.
    return { ...config, headers: { ...config.headers }, secret: generateWebhookSecret() };
  }

  maskedRecipient(config: WebhookNotificationConfig): string {
    return maskUrl(config.url);
  }

  address(config: WebhookNotificationConfig): string {
    return config.url;
  }

  deliver(
    config: WebhookNotificationConfig,
    notification: OutgoingNotification,
  ): Promise<AttemptOutcome> {
    return this.sendSigned(config, notification, webhookBody(notification.content));
  }

  /**
   * One request for the digest, `type: digest`, each event's `data` as it would have been sent
   * alone with that event's `type` and `timestamp`; the digest's `timestamp` is the period's end,
   * so every attempt sends the same body.
   */
  deliverDigest(
    config: WebhookNotificationConfig,
    digest: OutgoingDigest,
  ): Promise<AttemptOutcome> {
    const payload = digestWebhookPayload(
      digest.period,
      digest.period.period_end,
      digest.events.map((content) => webhookPayload(content)),
    );
    return this.sendSigned(config, digest, JSON.stringify(payload));
  }

  private sendSigned(
    config: WebhookNotificationConfig,
    attempt: { webhookId: string; attemptedAt: Date },
    body: string,
  ): Promise<AttemptOutcome> {
    const headers = configuredHeaders(config.headers);
    // A config stored before headers were validated: HTTP would refuse it on every attempt.
    if (typeof headers === 'string') {
      return Promise.resolve(failedAttempt(`Invalid webhook config: ${headers}`, false));
    }
    const timestamp = Math.floor(attempt.attemptedAt.getTime() / 1000);
    return this.http.send({
      url: config.url,
      method: config.method,
      headers: {
        ...headers,
        'webhook-id': attempt.webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(config.secret, attempt.webhookId, timestamp, body),
      },
      contentType: 'application/json',
      body,
      guarded: true,
    });
  }
}

function validHeaders(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalid('headers must map header names to string values');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) throw invalid(`at most ${MAX_HEADERS} headers are allowed`);
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of entries) {
    const problem = headerProblem(name, headerValue);
    if (problem) throw invalid(problem);
    if (RESERVED_WEBHOOK_HEADERS.includes(name.toLowerCase()))
      throw invalid(`header '${name}' is reserved`);
    // headerProblem has checked that the value is a string.
    headers[name] = String(headerValue);
  }
  return headers;
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

export const webhookChannel = defineChannel<WebhookNotificationConfig>({
  type: 'webhook',
  label: 'Webhook',
  channel: WebhookChannel,
  fields: [
    {
      name: 'url',
      label: 'URL',
      input: 'url',
      hint: 'Deliveries are signed with a secret the service makes; a new URL gets a new one.',
    },
    { name: 'method', label: 'Method', input: 'choice', choices: WEBHOOK_METHODS, default: 'POST' },
    { name: 'headers', label: 'Headers', input: 'headers', optional: true },
  ],
  generatedSecret: { name: 'secret', label: 'Signing secret' },
  credentials: ['headers'],
  secrets: {
    fields: ['url', 'headers', 'secret'],
    shapes: [{ pattern: /\bwhsec_[A-Za-z0-9+/=]{4,}/g, mask: 'whsec_[Redacted]', clue: /whsec_/ }],
  },
});
