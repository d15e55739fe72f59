import type { DigestPeriod } from '../../attention/local-time';
import { htmlDocument, paragraphs, type RenderedEmail } from './email-content';
import {
  changeLines,
  checkedAt,
  countOf,
  escapeHtml,
  messageParts,
  oneLine,
  truncate,
  type NotificationContent,
} from './notification-content';

/*
 * What a digest says on the wire (docs/attention.md, "Digests"): its title and lines, its email,
 * its webhook request and the lines a chat digest keeps within its channel's limit.
 */

/** One event as its webhook would have been sent alone. */
export interface DigestWebhookEvent {
  /** Its webhook type, such as `task.condition_met`. */
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * The one request a webhook digest sends (signed like any other webhook): each of its `events` is
 * the `data` of one event as it would have been sent, with that event's `type` and `timestamp`.
 */
export function digestWebhookPayload(
  period: DigestPeriod,
  timestamp: Date,
  events: readonly DigestWebhookEvent[],
): Record<string, unknown> {
  return {
    type: 'digest',
    timestamp: timestamp.toISOString(),
    data: {
      period_start: period.period_start.toISOString(),
      period_end: period.period_end.toISOString(),
      events: events.map((event) => ({
        type: event.type,
        timestamp: event.timestamp,
        ...event.data,
      })),
    },
  };
}

export interface DigestLinesInput {
  lines: string[];
  /** The channel's limit, in the unit `measure` counts. */
  maxLength: number;
  separator?: string;
  /** Characters by default; ntfy counts bytes of UTF-8. */
  measure?: (text: string) => number;
}

/**
 * The lines of a chat digest that fit its channel's limit, joined, and "and N more" for the rest
 * (the summary line fits within the limit too).
 */
export function fitDigestLines(input: DigestLinesInput): string {
  const separator = input.separator ?? '\n';
  const measure = input.measure ?? ((text: string) => text.length);
  const joined = (lines: string[]) => lines.join(separator);
  if (measure(joined(input.lines)) <= input.maxLength) return joined(input.lines);
  for (let kept = input.lines.length - 1; kept >= 0; kept--) {
    const text = joined([...input.lines.slice(0, kept), `and ${input.lines.length - kept} more`]);
    if (measure(text) <= input.maxLength) return text;
  }
  return `and ${input.lines.length} more`;
}

/** The events of one digest: one destination, one period (docs/attention.md, "Digests"). */
export interface DigestContent {
  period: DigestPeriod;
  /** Oldest first. */
  events: NotificationContent[];
}

/** A chat digest shows one line per event at most this long. */
const DIGEST_LINE_MAX = 300;

/** "Digest: 3 events from 2026-11-25 08:00:00 UTC to 2026-11-26 08:00:00 UTC". */
export function digestTitle(digest: DigestContent): string {
  const count = digest.events.length;
  return `Digest: ${countOf(count, 'event')} from ${checkedAt(digest.period.period_start)} to ${checkedAt(digest.period.period_end)}`;
}

/** One line per event, oldest first: what happened and when (`fitDigestLines` cuts the list). */
export function digestLines(digest: DigestContent): string[] {
  return digest.events.map((content) =>
    truncate(
      `${oneLine(messageParts(content).title)} (${checkedAt(content.occurredAt)})`,
      DIGEST_LINE_MAX,
    ),
  );
}

/** The email of a digest: each event with its task, time, answer and changes. */
export function renderDigestEmail(digest: DigestContent): RenderedEmail {
  const entries = digest.events.map((content) => {
    const parts = messageParts(content);
    const execution = content.execution;
    const changes = execution?.changes ?? [];
    return {
      title: parts.title,
      when: `Checked at ${checkedAt(content.occurredAt)}`,
      sections: [
        ...(execution && execution.answer !== ''
          ? [{ label: 'Answer', text: execution.answer }]
          : []),
        ...(execution?.errorMessage ? [{ label: 'Last error', text: execution.errorMessage }] : []),
        ...(changes.length > 0 ? [{ label: 'Changes', text: changeLines(changes) }] : []),
      ],
    };
  });
  const title = digestTitle(digest);
  const text = [
    `${title}.`,
    '',
    ...entries.flatMap((entry) => [
      entry.title,
      `${entry.when}.`,
      ...entry.sections.flatMap((section) => [`${section.label}:`, section.text]),
      '',
    ]),
  ].join('\n');
  const html = htmlDocument([
    `<h2>${escapeHtml(title)}</h2>`,
    ...entries.flatMap((entry) => [
      `<h3>${escapeHtml(entry.title)}</h3>`,
      `<p><small>${escapeHtml(entry.when)}.</small></p>`,
      ...entry.sections.flatMap((section) => [
        `<p><strong>${escapeHtml(section.label)}</strong></p>`,
        paragraphs(section.text),
      ]),
    ]),
  ]);
  return { subject: `[Monitor] ${title}`, text, html };
}
