import { Injectable } from '@nestjs/common';
import { HttpDeliveryService } from '../http-delivery.service';
import {
  digestLines,
  digestTitle,
  type DigestContent,
  fitDigestLines,
} from '../../content/digest-content';
import {
  escapeWithin,
  messageParts,
  type NotificationContent,
} from '../../content/notification-content';
import { defineChannel } from '../notification-channel';
import type { MessageEvent } from '../notification-types';
import { UrlHookChannel, type UrlHookConfig } from '../url-hook.channel';

export interface DiscordNotificationConfig extends UrlHookConfig {
  type: 'discord';
}

/** Discord's limits (API reference, "Embed Limits"): content 2,000; embed title 256, field 1,024. */
const CONTENT_MAX = 2000;
const TITLE_MAX = 256;
const DESCRIPTION_MAX = 1500;
const FIELD_MAX = 1024;
const FOOTER_MAX = 2048;
/** The sum of an embed's title, description, field names and values and footer. */
const EMBED_MAX = 6000;
const COLORS: Record<MessageEvent, number> = {
  condition_met: 0x2e7d32,
  check_failing: 0xc62828,
  check_recovered: 0x1565c0,
  values_changed: 0x6a1b9a,
  condition_retracted: 0xef6c00,
  test: 0x757575,
};

/**
 * Discord markdown: a backslash before any character that could start formatting (a list item
 * too: `-`, `+`), a masked link (`[`, `]`, `(`, `)`) or an angle-bracket link or mention (`<`,
 * `>`).
 */
function escapeDiscord(character: string): string {
  return /[\\*_~`|<>#[\]()+-]/.test(character) ? `\\${character}` : character;
}

/** The characters that could close a masked link's target or open another link. */
const LINK_SYNTAX = /[()[\]<>]/g;

function percentEncode(text: string): string {
  return text.replace(
    LINK_SYNTAX,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * A masked link's target (docs/api.md, "Notifications"): the URL with `(`, `)`, `[`, `]`, `<`
 * and `>` percent-encoded, so a source cannot break out of its link. The brackets of an IPv6
 * host are the URL's own syntax and stay (the parser leaves none unencoded before the host).
 */
function discordLinkTarget(uri: string): string {
  const { href, host } = new URL(uri);
  if (!host.startsWith('[')) return percentEncode(href);
  const at = href.indexOf(host);
  return `${percentEncode(href.slice(0, at))}${host}${percentEncode(href.slice(at + host.length))}`;
}

/** Discord's JSON message: a short `content` line and one embed with the details. */
export function discordMessage(content: NotificationContent): Record<string, unknown> {
  const parts = messageParts(content);
  const sourceLines: string[] = [];
  for (const source of parts.sources) {
    const title = escapeWithin(source.title || source.uri, 100, escapeDiscord);
    const line = `[${title}](${discordLinkTarget(source.uri)})`;
    if ([...sourceLines, line].join('\n').length > FIELD_MAX) break;
    sourceLines.push(line);
  }
  const title = escapeWithin(parts.title, TITLE_MAX, (c) => c);
  const description = escapeWithin(parts.summary, DESCRIPTION_MAX, escapeDiscord);
  const footer = escapeWithin(parts.footer, FOOTER_MAX, (c) => c);
  const sources =
    sourceLines.length > 0 ? [{ name: 'Sources', value: sourceLines.join('\n') }] : [];
  // Sections are cut to what the embed has left, in order, so the whole embed stays in its limit.
  let room =
    EMBED_MAX -
    title.length -
    description.length -
    footer.length -
    sources.reduce((sum, field) => sum + field.name.length + field.value.length, 0);
  const fields: Array<{ name: string; value: string }> = [];
  for (const section of parts.sections) {
    const max = Math.min(FIELD_MAX, room - section.label.length);
    if (max < 2) break;
    const value = escapeWithin(section.text || '-', max, escapeDiscord);
    room -= section.label.length + value.length;
    fields.push({ name: section.label, value });
  }
  return {
    content: `**${escapeWithin(parts.title, CONTENT_MAX - 4, escapeDiscord)}**`,
    embeds: [
      {
        title,
        description,
        ...(parts.sources[0] ? { url: new URL(parts.sources[0].uri).href } : {}),
        color: COLORS[content.event],
        fields: [...fields, ...sources],
        footer: { text: footer },
        timestamp: content.occurredAt.toISOString(),
      },
    ],
    // Text from the model or the task must never ping anyone (@everyone, roles, users).
    allowed_mentions: { parse: [] },
  };
}

/** A digest: its title in bold, then one line per event, all in `content` ("and N more"). */
export function discordDigestMessage(digest: DigestContent): Record<string, unknown> {
  const title = `**${escapeWithin(digestTitle(digest), TITLE_MAX, escapeDiscord)}**`;
  const lines = digestLines(digest).map((line) => escapeWithin(line, FIELD_MAX, escapeDiscord));
  return {
    content: `${title}\n${fitDigestLines({ lines, maxLength: CONTENT_MAX - title.length - 1 })}`,
    allowed_mentions: { parse: [] },
  };
}

/** Discord webhooks (docs/api.md): POST `{"content","embeds"}`. */
@Injectable()
export class DiscordChannel extends UrlHookChannel<DiscordNotificationConfig> {
  readonly type = 'discord';

  constructor(http: HttpDeliveryService) {
    super(http);
  }

  protected render(content: NotificationContent): unknown {
    return discordMessage(content);
  }

  protected renderDigest(digest: DigestContent): unknown {
    return discordDigestMessage(digest);
  }
}

export const discordChannel = defineChannel<DiscordNotificationConfig>({
  type: 'discord',
  label: 'Discord',
  channel: DiscordChannel,
  fields: [{ name: 'url', label: 'Webhook URL', input: 'url' }],
  secrets: {
    fields: ['url'],
    shapes: [
      {
        pattern: /\b(discord(?:app)?\.com\/api\/webhooks\/)[^\s"'<>]+/gi,
        mask: '$1[Redacted]',
        clue: /discord/,
      },
    ],
  },
});
