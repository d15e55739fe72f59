import { BadRequestException, Injectable } from '@nestjs/common';
import { validateHeaderValue } from 'node:http';
import type { AttemptOutcome } from '../../delivery/attempt-outcome';
import { HttpDeliveryService } from '../http-delivery.service';
import {
  digestLines,
  digestTitle,
  type DigestContent,
  fitDigestLines,
} from '../../content/digest-content';
import {
  messageParts,
  oneLine,
  type NotificationContent,
} from '../../content/notification-content';
import type { NotificationConfigBase, MessageEvent } from '../notification-types';
import {
  defineChannel,
  maskUrl,
  type NotificationChannel,
  type OutgoingDigest,
  type OutgoingNotification,
} from '../notification-channel';

export interface NtfyNotificationConfig extends NotificationConfigBase {
  type: 'ntfy';
  /** The topic URL (ntfy.sh or self-hosted). */
  url: string;
  /** Access token of a protected topic (a secret). */
  token?: string;
}

/** ntfy turns a longer message into an attachment (server `message-size-limit`, 4 KB). */
const BODY_MAX_BYTES = 4000;
const TITLE_MAX = 250;
const TOKEN_MAX = 512;
const TAGS: Record<MessageEvent, string> = {
  condition_met: 'white_check_mark',
  check_failing: 'warning',
  check_recovered: 'ok',
  values_changed: 'chart_with_upwards_trend',
  condition_retracted: 'x',
  test: 'bell',
};

/**
 * A header value that HTTP can carry: ASCII as is, anything else as an RFC 2047 encoded word,
 * which ntfy decodes (its docs, "Publishing": UTF-8 in headers).
 */
export function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text).toString('base64')}?=`;
}

/** Cuts to at most `max` bytes of UTF-8 without splitting a character. */
function cutBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let result = '';
  let bytes = 0;
  for (const character of text) {
    bytes += Buffer.byteLength(character);
    if (bytes > max - 3) break;
    result += character;
  }
  return `${result.trimEnd()}…`;
}

/** The ntfy message: plain text body, title, tag and the first source as the click action. */
interface NtfyMessage {
  body: string;
  headers: Record<string, string>;
}

export function ntfyMessage(content: NotificationContent): NtfyMessage {
  const parts = messageParts(content);
  const body = [
    parts.summary,
    ...parts.sections.map((section) => `${section.label}: ${section.text}`),
    ...(parts.sources.length > 0
      ? [parts.sources.map((source) => `${source.title || source.uri}: ${source.uri}`).join('\n')]
      : []),
    parts.footer,
  ].join('\n\n');
  const title = Array.from(oneLine(parts.title)).slice(0, TITLE_MAX).join('');
  return {
    body: cutBytes(body, BODY_MAX_BYTES),
    headers: {
      Title: headerText(title),
      Tags: TAGS[content.event],
      ...(parts.sources[0] ? { Click: new URL(parts.sources[0].uri).href } : {}),
    },
  };
}

/** The message of a digest: one line per event, within the body's bytes ("and N more"). */
export function ntfyDigestMessage(digest: DigestContent): NtfyMessage {
  return {
    body: fitDigestLines({
      lines: digestLines(digest),
      maxLength: BODY_MAX_BYTES,
      measure: (text) => Buffer.byteLength(text),
    }),
    headers: {
      Title: headerText(
        Array.from(oneLine(digestTitle(digest)))
          .slice(0, TITLE_MAX)
          .join(''),
      ),
      Tags: 'newspaper',
    },
  };
}

/** ntfy (docs/api.md): POST the text to the topic URL with `Title`, `Click` and `Tags`. */
@Injectable()
export class NtfyChannel implements NotificationChannel<NtfyNotificationConfig> {
  readonly type = 'ntfy';
  readonly digestsGather = 'destination';

  constructor(private readonly http: HttpDeliveryService) {}

  async validate(entry: Record<string, unknown>): Promise<NtfyNotificationConfig> {
    const url = await this.http.checkConfigUrl(entry.url, 'an ntfy notification');
    if (entry.token === undefined || entry.token === null) return { type: 'ntfy', url };
    if (
      typeof entry.token !== 'string' ||
      entry.token.trim() === '' ||
      !isHeaderSafe(entry.token)
    ) {
      throw new BadRequestException(
        `Invalid notification: token must be a non-empty string of at most ${TOKEN_MAX} printable ASCII characters`,
      );
    }
    return { type: 'ntfy', url, token: entry.token.trim() };
  }

  copyForOwnFork(config: NtfyNotificationConfig): NtfyNotificationConfig {
    return { ...config };
  }

  maskedRecipient(config: NtfyNotificationConfig): string {
    return maskUrl(config.url);
  }

  address(config: NtfyNotificationConfig): string {
    return config.url;
  }

  deliver(
    config: NtfyNotificationConfig,
    notification: OutgoingNotification,
  ): Promise<AttemptOutcome> {
    return this.post(config, ntfyMessage(notification.content));
  }

  deliverDigest(config: NtfyNotificationConfig, digest: OutgoingDigest): Promise<AttemptOutcome> {
    return this.post(config, ntfyDigestMessage(digest));
  }

  private post(config: NtfyNotificationConfig, message: NtfyMessage): Promise<AttemptOutcome> {
    return this.http.send({
      url: config.url,
      method: 'POST',
      headers: {
        ...message.headers,
        ...(config.token ? { Authorization: `Bearer ${config.token}` } : {}),
      },
      contentType: 'text/plain; charset=utf-8',
      body: message.body,
      guarded: true,
    });
  }
}

function isHeaderSafe(token: string): boolean {
  if (token.length > TOKEN_MAX || !/^[\x21-\x7e]+$/.test(token.trim())) return false;
  try {
    validateHeaderValue('authorization', `Bearer ${token.trim()}`);
    return true;
  } catch {
    return false;
  }
}

export const ntfyChannel = defineChannel<NtfyNotificationConfig>({
  type: 'ntfy',
  label: 'ntfy',
  channel: NtfyChannel,
  fields: [
    { name: 'url', label: 'Topic URL', input: 'url' },
    { name: 'token', label: 'Access token', input: 'password', optional: true },
  ],
  credentials: ['token'],
  secrets: {
    fields: ['token'],
    shapes: [{ pattern: /\btk_[A-Za-z0-9_-]{4,}/g, mask: 'tk_[Redacted]', clue: /tk_/ }],
  },
});
