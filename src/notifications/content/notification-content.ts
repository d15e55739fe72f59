import type { PageResultLine } from '../../pages/results/page-result-line';
import type { OutputValue, OutputValues } from '../../search/output-schema';
import type { GroundingSource } from '../../search/search.types';
import type { MessageEvent } from '../channels/notification-types';

/** What an execution's sources amounted to (`evidence`). */
export interface EvidenceContent {
  distinct_domains: number;
  trusted_matches: number;
  satisfied: boolean;
}

/** One value that changed since the previous check (an element of `changes`). */
export interface ChangeContent {
  field: string;
  before: OutputValue;
  after: OutputValue;
}

/**
 * What a notification is about: the event, the task and the execution behind it (the one that
 * met the condition, whose values changed or that withdrew an alert, the last failed one, or the
 * success that ended a failing streak).
 */
export interface NotificationContent {
  event: MessageEvent;
  task: {
    id: string;
    name: string;
    searchQuery: string;
    conditionDescription: string;
  };
  /** Null for a test send, which has no execution. */
  execution: {
    id: string;
    status: 'success' | 'failed';
    conditionMet: boolean | null;
    /** The model's verdict before evidence; null for a failed check. */
    claimedMet: boolean | null;
    evidence: EvidenceContent | null;
    values: OutputValues | null;
    changes: ChangeContent[] | null;
    answer: string;
    reasoning: string;
    errorMessage: string | null;
    groundingSources: GroundingSource[];
    /** What each page of a page task read (null for a task without pages). */
    pageResults: PageResultLine[] | null;
    /** The execution whose model call (or page rule) made the verdict. */
    verdictExecutionId: string | null;
    completedAt: Date;
  } | null;
  /** The failing streak an alert or a recovery is about (0 otherwise). */
  consecutiveFailures: number;
  /** For `condition_retracted`: the execution whose notification is withdrawn. */
  retractedExecutionId: string | null;
  /** When the event happened: the check's end, or the moment of a test send. */
  occurredAt: Date;
  /** A reminder of a standing alert: which one (docs/attention.md, "Reminders"). */
  repeat: number | null;
  /** An alert a cooldown's end sent: how many waiting alerts it replaces, itself included. */
  folded: number | null;
}

export type ExecutionContent = NonNullable<NotificationContent['execution']>;

/** Chat apps show this many sources at most. */
export const MAX_SOURCES = 5;

/** A message quotes this many added and this many removed lines of a changed page. */
const MAX_PAGE_LINES = 3;
const PAGE_LINE_MAX = 200;
/** A message lists this many new items of a page with items (docs/pages.md, "Items and feeds"). */
const MAX_PAGE_ITEMS = 10;

/**
 * The parts every chat message is built from, in plain text; each channel escapes and cuts them
 * for its app. `title` says what happened ("Release watch: checks are failing").
 */
export interface MessageParts {
  title: string;
  summary: string;
  sections: Array<{ label: string; text: string }>;
  /** Web links only, at most MAX_SOURCES. */
  sources: GroundingSource[];
  /** "Checked at 2026-02-03 04:05:06 UTC" (or "Sent at" for a test). */
  footer: string;
}

/** A value as a message shows it: strings as written, `none` for a missing value. */
export function formatValue(value: OutputValue): string {
  if (value === null) return 'none';
  return typeof value === 'string' ? oneLine(value) || '""' : String(value);
}

/** `field: before → after`, one line per change. */
export function changeLines(changes: ChangeContent[]): string {
  return changes
    .map(
      (change) => `${change.field}: ${formatValue(change.before)} → ${formatValue(change.after)}`,
    )
    .join('\n');
}

/** Cuts to at most `max` characters (code points), marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  return `${characters
    .slice(0, Math.max(0, max - 1))
    .join('')
    .trimEnd()}…`;
}

/**
 * The line a reminder or a folded alert carries in messages (docs/attention.md): "Reminder 2: ..."
 * or "3 alerts during the cooldown, this one included."
 */
export function attentionLine(content: NotificationContent): string | null {
  if (content.repeat !== null)
    return `Reminder ${content.repeat}: this alert stands and is not acknowledged yet.`;
  if (content.folded !== null)
    return content.folded === 1
      ? '1 alert during the cooldown: this one.'
      : `${content.folded} alerts during the cooldown, folded into this one (the latest).`;
  return null;
}

/** What happened, in the words every chat channel uses. */
export function messageParts(content: NotificationContent): MessageParts {
  const parts = eventParts(content);
  const line = attentionLine(content);
  if (line === null) return parts;
  return {
    ...parts,
    title: content.repeat !== null ? `Reminder: ${parts.title}` : parts.title,
    summary: `${line} ${parts.summary}`,
  };
}

function eventParts(content: NotificationContent): MessageParts {
  const name = oneLine(content.task.name) || 'Monitor';
  const execution = content.execution;
  const answerSections = (run: ExecutionContent) => [
    { label: 'Answer', text: run.answer },
    { label: 'Reasoning', text: run.reasoning },
  ];
  const changes = execution?.changes ?? [];
  const changeSections =
    changes.length > 0 ? [{ label: 'Changes', text: changeLines(changes) }] : [];
  const changedPages = changedPagesOf(execution);
  const pageSections =
    changedPages.length > 0 ? [{ label: 'Changed pages', text: pageChangeText(changedPages) }] : [];
  const values = pageValueText(execution);
  const valueSections = values === null ? [] : [{ label: 'Values', text: values }];
  const sources = linkedSources(changedPages, execution?.groundingSources ?? []);
  const footer =
    content.event === 'test'
      ? `Sent at ${checkedAt(content.occurredAt)}`
      : `Checked at ${checkedAt(content.occurredAt)}`;
  switch (content.event) {
    case 'condition_met':
      return {
        title: `${name}: condition met`,
        summary: `Condition: ${content.task.conditionDescription}`,
        sections: execution
          ? [...answerSections(execution), ...valueSections, ...pageSections, ...changeSections]
          : [],
        sources,
        footer,
      };
    case 'values_changed':
      return {
        title: `${name}: values changed`,
        summary:
          changes.length === 1
            ? '1 value changed since the last check.'
            : `${changes.length} values changed since the last check.`,
        sections: [
          ...changeSections,
          ...(execution ? answerSections(execution).slice(0, 1) : []),
          ...valueSections,
          ...pageSections,
        ],
        sources,
        footer,
      };
    case 'condition_retracted':
      return {
        title: `${name}: alert withdrawn`,
        summary: `The earlier alert is withdrawn: the condition is no longer met. Condition: ${content.task.conditionDescription}`,
        sections: execution ? [...answerSections(execution), ...pageSections] : [],
        sources,
        footer,
      };
    case 'check_failing':
      return {
        title: `${name}: checks are failing`,
        summary: `The last ${content.consecutiveFailures} checks failed.`,
        sections: [{ label: 'Last error', text: execution?.errorMessage ?? 'Unknown error' }],
        sources: [],
        footer,
      };
    case 'check_recovered':
      return {
        title: `${name}: checks recovered`,
        summary: `The check succeeded again after ${content.consecutiveFailures} failed checks.`,
        sections: execution ? [...answerSections(execution), ...pageSections] : [],
        sources,
        footer,
      };
    case 'test':
      return {
        title: `${name}: test notification`,
        summary: 'This is a test notification: this channel works.',
        sections: [],
        sources: [],
        footer,
      };
  }
}

/**
 * The values a page task's check read (docs/pages.md, "Values read from pages"), one
 * `name: value` line each (a value not read says why), or null when its pages read none.
 */
export function pageValueText(execution: ExecutionContent | null): string | null {
  const lines = (execution?.pageResults ?? []).flatMap((page) =>
    Object.entries(page.values ?? {}).map(([name, value]) =>
      value === null
        ? `${name}: not read (${page.value_errors?.[name] ?? 'not found'})`
        : `${name}: ${formatValue(value)}`,
    ),
  );
  return lines.length === 0 ? null : lines.join('\n');
}

/** The pages of a page task's check whose text changed, in the task's page order. */
export function changedPagesOf(execution: ExecutionContent | null): PageResultLine[] {
  return (execution?.pageResults ?? []).filter((page) => page.status === 'changed');
}

/** The page a message links: where the fetch ended, else the page's own URL. */
function pageLink(page: PageResultLine): GroundingSource {
  const uri = page.final_url ?? page.url;
  return { uri, title: page.title || uri };
}

/**
 * The links a message shows: the changed pages first (so each of them is linked), then the
 * other web sources, at most MAX_SOURCES.
 */
function linkedSources(
  changedPages: PageResultLine[],
  groundingSources: GroundingSource[],
): GroundingSource[] {
  const pages = changedPages.map(pageLink);
  const linked = new Set(pages.map((page) => page.uri));
  return [...pages, ...groundingSources.filter((source) => !linked.has(source.uri))]
    .filter((source) => isWebLink(source.uri))
    .slice(0, MAX_SOURCES);
}

export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * What a message says of one changed page: its link, its counts and its first changed lines; of
 * a page with new items, their count and the first of them, each with its title and link.
 */
export function pageChange(page: PageResultLine): {
  link: GroundingSource;
  counts: string;
  lines: string[];
} {
  // Executions recorded before pages had items carry no `new_items`.
  const items = page.new_items ?? [];
  if (items.length > 0) {
    const more = items.length - MAX_PAGE_ITEMS;
    return {
      link: pageLink(page),
      counts: countOf(items.length, 'new item'),
      lines: [
        ...items
          .slice(0, MAX_PAGE_ITEMS)
          .map(
            (item) =>
              `+ ${truncate(oneLine([item.title, item.url].filter(Boolean).join(' ')), PAGE_LINE_MAX)}`,
          ),
        ...(more > 0 ? [`… and ${more} more`] : []),
      ],
    };
  }
  const quoted = (sign: string, lines: string[]) =>
    lines
      .slice(0, MAX_PAGE_LINES)
      .map((line) => `${sign} ${truncate(oneLine(line), PAGE_LINE_MAX)}`);
  return {
    link: pageLink(page),
    counts: `${countOf(page.added.length, 'line')} added, ${page.removed.length} removed`,
    lines: [...quoted('+', page.added), ...quoted('-', page.removed)],
  };
}

/**
 * Each changed page on lines of its own: its title and URL, its counts, then its first added
 * lines (`+ `) and removed lines (`- `); pages apart by an empty line.
 */
export function pageChangeText(pages: PageResultLine[]): string {
  return pages
    .map((page) => {
      const { link, counts, lines } = pageChange(page);
      const name = link.title === link.uri ? link.uri : `${oneLine(link.title)} (${link.uri})`;
      return [name, counts, ...lines].join('\n');
    })
    .join('\n\n');
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Everything in a notification comes from the user or the model: it is escaped, always. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/** A header value on one line (a task name must not be able to add a header). */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();
}

export function isWebLink(uri: string): boolean {
  try {
    const protocol = new URL(uri).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export function checkedAt(date: Date): string {
  return `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

/**
 * Escapes `text` character by character and cuts it so the escaped result is at most `max`
 * UTF-16 units, ellipsis included: chat apps count their limits on the text as sent.
 */
export function escapeWithin(
  text: string,
  max: number,
  escape: (character: string) => string,
): string {
  const full = Array.from(text, escape).join('');
  if (full.length <= max) return full;
  let result = '';
  for (const character of text) {
    const piece = escape(character);
    if (result.length + piece.length > max - 1) break;
    result += piece;
  }
  return `${result.trimEnd()}…`;
}
