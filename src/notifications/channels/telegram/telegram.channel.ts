import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectConfig } from '../../../config/config-slice';
import type { AttemptOutcome } from '../../delivery/attempt-outcome';
import { HttpDeliveryService } from '../http-delivery.service';
import {
  digestLines,
  digestTitle,
  type DigestContent,
  fitDigestLines,
} from '../../content/digest-content';
import {
  escapeHtml,
  escapeWithin,
  messageParts,
  truncate,
  type NotificationContent,
} from '../../content/notification-content';
import type { NotificationConfigBase } from '../notification-types';
import {
  defineChannel,
  type NotificationChannel,
  type OutgoingDigest,
  type OutgoingNotification,
} from '../notification-channel';
import { TELEGRAM_VARIABLES, telegramConfig, type TelegramConfig } from './telegram.config';

export interface TelegramNotificationConfig extends NotificationConfigBase {
  type: 'telegram';
  /** A chat id (`-1001234567890`) or a public channel's `@username`. */
  chat_id: string;
  /** The bot's token (a secret). */
  bot_token: string;
}

const CHAT_ID_PATTERN = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;
/** BotFather's format: `<bot id>:<secret>`. */
const BOT_TOKEN_PATTERN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
/**
 * Telegram counts its 4,096 characters on the text after HTML parsing, so the visible parts
 * are cut before escaping; these budgets keep their sum under the limit.
 */
const TITLE_MAX = 256;
const SUMMARY_MAX = 500;
const SECTION_MAX = 1200;
const SOURCE_TITLE_MAX = 100;
const TEXT_MAX = 4096;

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid notification: ${reason}`);
}

/** The `sendMessage` text in Telegram's HTML parse mode. */
export function telegramText(content: NotificationContent): string {
  const parts = messageParts(content);
  const title = truncate(parts.title, TITLE_MAX);
  const summary = truncate(parts.summary, SUMMARY_MAX);
  const links = parts.sources.map((source) => ({
    href: new URL(source.uri).href,
    title: truncate(source.title || source.uri, SOURCE_TITLE_MAX),
  }));
  const sourceLines =
    links.length > 0 ? ['', 'Sources', ...links.map((link) => `• ${link.title}`)] : [];
  // Sections get what the visible text has left, in order: each is its label and text on
  // lines of their own after an empty line.
  let room = TEXT_MAX - [title, summary, ...sourceLines, '', parts.footer].join('\n').length;
  const sections: string[] = [];
  for (const section of parts.sections) {
    const max = Math.min(SECTION_MAX, room - section.label.length - 3);
    if (max < 2) break;
    const text = escapeWithin(section.text, max, (c) => c);
    room -= section.label.length + text.length + 3;
    sections.push('', `<b>${escapeHtml(section.label)}</b>`, escapeHtml(text));
  }
  return [
    `<b>${escapeHtml(title)}</b>`,
    escapeHtml(summary),
    ...sections,
    ...(links.length > 0
      ? [
          '',
          '<b>Sources</b>',
          ...links.map(
            (link) => `• <a href="${escapeHtml(link.href)}">${escapeHtml(link.title)}</a>`,
          ),
        ]
      : []),
    '',
    `<i>${escapeHtml(parts.footer)}</i>`,
  ].join('\n');
}

/**
 * The `sendMessage` text of a digest: its title in bold, then one line per event; the lines are
 * fitted on the visible text (what Telegram counts), then escaped.
 */
export function telegramDigestText(digest: DigestContent): string {
  const title = truncate(digestTitle(digest), TITLE_MAX);
  const lines = fitDigestLines({
    lines: digestLines(digest),
    maxLength: TEXT_MAX - title.length - 1,
  });
  return `<b>${escapeHtml(title)}</b>\n${escapeHtml(lines)}`;
}

/**
 * Telegram bots (docs/api.md): POST `{TELEGRAM_API_BASE_URL}/bot<token>/sendMessage`.
 * The base URL is the operator's, so the SSRF guard does not apply to it; the token is part
 * of the path and never appears in an error or a send record.
 */
@Injectable()
export class TelegramChannel implements NotificationChannel<TelegramNotificationConfig> {
  readonly type = 'telegram';
  readonly digestsGather = 'destination';

  constructor(
    @InjectConfig(telegramConfig) private readonly config: TelegramConfig,
    private readonly http: HttpDeliveryService,
  ) {}

  validate(entry: Record<string, unknown>): Promise<TelegramNotificationConfig> {
    const chatId =
      typeof entry.chat_id === 'number' && Number.isSafeInteger(entry.chat_id)
        ? String(entry.chat_id)
        : typeof entry.chat_id === 'string'
          ? entry.chat_id.trim()
          : '';
    if (!CHAT_ID_PATTERN.test(chatId)) {
      return Promise.reject(invalid('chat_id must be a chat id (a number) or a @channel username'));
    }
    const token = typeof entry.bot_token === 'string' ? entry.bot_token.trim() : '';
    if (!BOT_TOKEN_PATTERN.test(token)) {
      return Promise.reject(invalid('bot_token must be a Telegram bot token (<bot id>:<secret>)'));
    }
    return Promise.resolve({ type: 'telegram', chat_id: chatId, bot_token: token });
  }

  copyForOwnFork(config: TelegramNotificationConfig): TelegramNotificationConfig {
    return { ...config };
  }

  maskedRecipient(config: TelegramNotificationConfig): string {
    return config.chat_id;
  }

  /** One chat, whichever bot posts to it. */
  address(config: TelegramNotificationConfig): string {
    return config.chat_id;
  }

  deliver(
    config: TelegramNotificationConfig,
    notification: OutgoingNotification,
  ): Promise<AttemptOutcome> {
    return this.sendMessage(config, telegramText(notification.content));
  }

  deliverDigest(
    config: TelegramNotificationConfig,
    digest: OutgoingDigest,
  ): Promise<AttemptOutcome> {
    return this.sendMessage(config, telegramDigestText(digest));
  }

  private sendMessage(config: TelegramNotificationConfig, text: string): Promise<AttemptOutcome> {
    return this.http.send({
      url: `${this.config.telegramApiBaseUrl}/bot${config.bot_token}/sendMessage`,
      method: 'POST',
      headers: {},
      contentType: 'application/json',
      body: JSON.stringify({
        chat_id: config.chat_id,
        text,
        parse_mode: 'HTML',
        disable_web_page_preview: true,
      }),
      guarded: false,
    });
  }
}

export const telegramChannel = defineChannel<TelegramNotificationConfig>({
  type: 'telegram',
  label: 'Telegram',
  channel: TelegramChannel,
  fields: [
    { name: 'chat_id', label: 'Chat id', input: 'text' },
    { name: 'bot_token', label: 'Bot token', input: 'password' },
  ],
  config: telegramConfig,
  variables: TELEGRAM_VARIABLES,
  credentials: ['bot_token'],
  secrets: {
    fields: ['bot_token'],
    // `<bot id>:<secret>`, in a Bot API path (`/bot<token>/`) or alone.
    shapes: [
      {
        pattern: /\b(bot)?\d{1,20}:[A-Za-z0-9_-]{20,}/g,
        mask: '[Redacted]',
        clue: /\d:[A-Za-z0-9_-]{20}/,
      },
    ],
  },
});
