import type { DigestPeriod } from '../local-time';

/*
 * What a digest says on the wire (docs/attention.md, "Digests"): the channels use these, so this
 * file imports nothing of theirs.
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
