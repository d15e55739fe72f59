import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { NotificationConfig, WebhookNotificationConfig } from '../tasks/task.entity';
import { HostResolver } from './host-resolver';
import { BlockedDestinationError } from './network-guard';

const EMAIL_PATTERN = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:"]+$/;
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
const MAX_HEADERS = 20;
const MAX_HEADER_VALUE_LENGTH = 4096;

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid notification: ${reason}`);
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Validates `notifications` of a create or update request and normalises it for storage. A
 * webhook keeps its signing secret when its URL is unchanged, and gets a new one otherwise.
 */
@Injectable()
export class NotificationConfigValidator {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hosts: HostResolver,
  ) {}

  async validate(
    input: unknown[],
    existing: NotificationConfig[] = [],
  ): Promise<NotificationConfig[]> {
    const seen = new Set<string>();
    const result: NotificationConfig[] = [];
    for (const item of input) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        throw invalid('each notification must be an object with a type');
      }
      const entry = item as Record<string, unknown>;
      if (entry.type !== 'email' && entry.type !== 'webhook')
        throw invalid("type must be 'email' or 'webhook'");
      if (seen.has(entry.type)) {
        throw new BadRequestException(
          'Multiple notifications of the same type are not supported: at most one email and one webhook per task',
        );
      }
      seen.add(entry.type);
      result.push(entry.type === 'email' ? this.email(entry) : await this.webhook(entry, existing));
    }
    return result;
  }

  private email(entry: Record<string, unknown>): NotificationConfig {
    const address = typeof entry.address === 'string' ? entry.address.trim() : '';
    if (!address || address.length > 320 || !EMAIL_PATTERN.test(address)) {
      throw invalid('address must be a valid email address');
    }
    return { type: 'email', address };
  }

  private async webhook(
    entry: Record<string, unknown>,
    existing: NotificationConfig[],
  ): Promise<WebhookNotificationConfig> {
    if (typeof entry.url !== 'string' || entry.url.trim() === '')
      throw invalid('url is required for a webhook');
    let url: URL;
    try {
      url = new URL(entry.url.trim());
    } catch {
      throw invalid('url must be a valid http or https URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw invalid('url must be a valid http or https URL');
    if (url.username || url.password)
      throw invalid('url must not contain credentials; use headers instead');
    if (url.href.length > 2048) throw invalid('url must be at most 2048 characters');
    const method =
      entry.method === undefined || entry.method === null
        ? 'POST'
        : typeof entry.method === 'string'
          ? entry.method.toUpperCase()
          : '';
    if (!(WEBHOOK_METHODS as readonly string[]).includes(method))
      throw invalid('method must be POST, PUT or PATCH');
    const headers = this.headers(entry.headers);
    try {
      await this.hosts.resolveAllowed(url.hostname, this.config.webhookAllowPrivateNetworks);
    } catch (error) {
      if (error instanceof BlockedDestinationError) throw invalid(`url ${error.message}`);
      throw invalid(`url host ${url.hostname} could not be resolved`);
    }
    const previous = existing.find(
      (config): config is WebhookNotificationConfig => config.type === 'webhook',
    );
    const secret =
      previous && previous.url === url.href ? previous.secret : generateWebhookSecret();
    return {
      type: 'webhook',
      url: url.href,
      method: method as WebhookNotificationConfig['method'],
      headers,
      secret,
    };
  }

  private headers(value: unknown): Record<string, string> {
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
}

/**
 * Why HTTP would refuse this configured header, or null. Node's own checks (the ones its HTTP
 * client applies when it sends the request): a name must be an HTTP token; a value may hold
 * tabs and characters 0x20-0x7E and 0x80-0xFF only.
 */
export function headerProblem(name: string, value: unknown): string | null {
  try {
    validateHeaderName(name);
  } catch {
    return `header name '${name}' is not valid`;
  }
  if (typeof value !== 'string' || value.length > MAX_HEADER_VALUE_LENGTH) {
    return `header '${name}' must have a string value of at most ${MAX_HEADER_VALUE_LENGTH} characters`;
  }
  try {
    validateHeaderValue(name, value);
  } catch {
    return `header '${name}' has a value HTTP does not allow (control characters, line breaks or characters beyond Latin-1)`;
  }
  return null;
}
