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
import { UrlHookChannel, type UrlHookConfig } from '../url-hook.channel';

export interface SlackNotificationConfig extends UrlHookConfig {
  type: 'slack';
}

/** Slack's limits (Block Kit reference): header text 150, section text 3,000 characters. */
const HEADER_MAX = 150;
const SECTION_MAX = 3000;

/** Slack mrkdwn: `&`, `<` and `>` are control characters and must be escaped. */
function escapeSlack(character: string): string {
  return character === '&'
    ? '&amp;'
    : character === '<'
      ? '&lt;'
      : character === '>'
        ? '&gt;'
        : character;
}

function mrkdwn(text: string) {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** Slack's JSON message: `text` for notifications and screen readers, `blocks` for the view. */
export function slackMessage(content: NotificationContent): { text: string; blocks: unknown[] } {
  const parts = messageParts(content);
  const blocks: unknown[] = [
    {
      type: 'header',
      text: { type: 'plain_text', text: escapeWithin(parts.title, HEADER_MAX, (c) => c) },
    },
    mrkdwn(escapeWithin(parts.summary, SECTION_MAX, escapeSlack)),
    ...parts.sections.map((section) =>
      mrkdwn(`*${section.label}*\n${escapeWithin(section.text, SECTION_MAX - 40, escapeSlack)}`),
    ),
  ];
  if (parts.sources.length > 0) {
    // Whole links only: a link cut in half would not render.
    const lines = ['*Sources*'];
    for (const source of parts.sources) {
      const title = escapeWithin(source.title || source.uri, 200, (c) =>
        c === '|' ? '¦' : escapeSlack(c),
      );
      const line = `• <${new URL(source.uri).href.replace(/[<>|]/g, encodeURIComponent)}|${title}>`;
      if (lines.join('\n').length + line.length + 1 > SECTION_MAX) break;
      lines.push(line);
    }
    blocks.push(mrkdwn(lines.join('\n')));
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: parts.footer }] });
  return {
    text: escapeWithin(`${parts.title}: ${parts.summary}`, SECTION_MAX, escapeSlack),
    blocks,
  };
}

/** A digest: its title as the header, one line per event in one section ("and N more"). */
export function slackDigestMessage(digest: DigestContent): { text: string; blocks: unknown[] } {
  const title = digestTitle(digest);
  const lines = digestLines(digest).map(
    (line) => `• ${escapeWithin(line, SECTION_MAX, escapeSlack)}`,
  );
  return {
    text: escapeWithin(title, SECTION_MAX, escapeSlack),
    blocks: [
      {
        type: 'header',
        text: { type: 'plain_text', text: escapeWithin(title, HEADER_MAX, (c) => c) },
      },
      mrkdwn(fitDigestLines({ lines, maxLength: SECTION_MAX })),
    ],
  };
}

/** Slack incoming webhooks (docs/api.md): POST `{"text","blocks"}`. */
@Injectable()
export class SlackChannel extends UrlHookChannel<SlackNotificationConfig> {
  readonly type = 'slack';

  constructor(http: HttpDeliveryService) {
    super(http);
  }

  protected render(content: NotificationContent): unknown {
    return slackMessage(content);
  }

  protected renderDigest(digest: DigestContent): unknown {
    return slackDigestMessage(digest);
  }
}

export const slackChannel = defineChannel<SlackNotificationConfig>({
  type: 'slack',
  label: 'Slack',
  channel: SlackChannel,
  fields: [{ name: 'url', label: 'Incoming webhook URL', input: 'url' }],
  secrets: {
    fields: ['url'],
    shapes: [
      {
        pattern: /\b(hooks\.slack\.com\/)[^\s"'<>]+/gi,
        mask: '$1[Redacted]',
        clue: /hooks\.slack/,
      },
    ],
  },
});
