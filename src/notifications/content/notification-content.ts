import type { PageResultLine } from '../../pages/results/page-result-line';
import type { OutputValue, OutputValues } from '../../search/output-schema';
import type { GroundingSource } from '../../search/search.types';
import type { DigestPeriod } from '../../attention/local-time';
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

type ExecutionContent = NonNullable<NotificationContent['execution']>;

/** Chat apps show this many sources at most. */
export const MAX_SOURCES = 5;

/** A message quotes this many added and this many removed lines of a changed page. */
const MAX_PAGE_LINES = 3;
const PAGE_LINE_MAX = 200;

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

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/**
 * The JSON body of webhooks, identical for every attempt (docs/api.md, "Notifications"): the
 * execution's verdict for `task.condition_met`, its status and the streak for the failing and
 * recovered events; a test carries the task only.
 */
export function webhookBody(content: NotificationContent): string {
  return JSON.stringify(webhookPayload(content));
}

/** The webhook body of `webhookBody`, as an object (a digest gathers their `data`). */
export function webhookPayload(content: NotificationContent): {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
} {
  const { task, execution } = content;
  const data: Record<string, unknown> = {
    task: {
      id: task.id,
      name: task.name,
      search_query: task.searchQuery,
      condition_description: task.conditionDescription,
    },
  };
  // Every execution object also says what the verdict rests on (docs/api.md, "Notifications").
  const verdict = (run: ExecutionContent) => ({
    claimed_met: run.claimedMet,
    evidence: run.evidence,
    values: run.values,
    changes: run.changes,
    page_results: run.pageResults,
    verdict_execution_id: run.verdictExecutionId,
  });
  if (execution && VERDICT_EVENTS.has(content.event)) {
    data.execution = {
      id: execution.id,
      condition_met: execution.conditionMet ?? content.event === 'condition_met',
      ...verdict(execution),
      answer: execution.answer,
      reasoning: execution.reasoning,
      grounding_sources: execution.groundingSources,
      completed_at: execution.completedAt.toISOString(),
    };
    if (content.event === 'condition_retracted') {
      data.retracted_execution_id = content.retractedExecutionId;
    }
  } else if (execution) {
    data.execution = {
      id: execution.id,
      status: execution.status,
      error_message: execution.errorMessage,
      ...verdict(execution),
      completed_at: execution.completedAt.toISOString(),
    };
    data.consecutive_failures = content.consecutiveFailures;
  }
  if (content.repeat !== null) data.repeat = content.repeat;
  if (content.folded !== null) data.folded = content.folded;
  return {
    type: `task.${content.event}`,
    // The time of the event (the check), not of the attempt: `webhook-timestamp` carries that.
    timestamp: content.occurredAt.toISOString(),
    data,
  };
}

/** Events whose execution is a verdict (the others are about a failing streak). */
const VERDICT_EVENTS = new Set<MessageEvent>([
  'condition_met',
  'values_changed',
  'condition_retracted',
]);

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
function pageValueText(execution: ExecutionContent | null): string | null {
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
function changedPagesOf(execution: ExecutionContent | null): PageResultLine[] {
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

function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** What a message says of one changed page: its link, its counts and its first changed lines. */
function pageChange(page: PageResultLine): {
  link: GroundingSource;
  counts: string;
  lines: string[];
} {
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

/** The same in HTML: each page linked, its changed lines as preformatted text. */
function pageChangeHtml(pages: PageResultLine[]): string {
  return pages
    .map((page) => {
      const { link, counts, lines } = pageChange(page);
      return [
        `<p><a href="${escapeHtml(link.uri)}">${escapeHtml(link.title)}</a><br>${counts}</p>`,
        ...(lines.length > 0 ? [`<pre>${escapeHtml(lines.join('\n'))}</pre>`] : []),
      ].join('\n');
    })
    .join('\n');
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

function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

function checkedAt(date: Date): string {
  return `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

/** The email of a notification: the condition-met email, or one built from the message parts. */
export function renderEmail(content: NotificationContent): RenderedEmail {
  return content.event === 'condition_met' && content.execution
    ? renderConditionMetEmail(content, content.execution)
    : renderEventEmail(messageParts(content));
}

/** The notification email: the subject names the task; the body holds the rest. */
export function renderConditionMetEmail(
  content: NotificationContent,
  execution: ExecutionContent,
): RenderedEmail {
  const { task } = content;
  const name = oneLine(task.name) || 'Monitor';
  const sources = execution.groundingSources;
  const when = checkedAt(execution.completedAt);
  const changes = execution.changes ?? [];
  const changedPages = changedPagesOf(execution);
  const pageText = changedPages.length > 0 ? pageChangeText(changedPages) : null;
  const values = pageValueText(execution);
  const line = attentionLine(content);

  const text = [
    ...(line ? [line, ''] : []),
    `The condition of your monitor "${name}" is met.`,
    '',
    `Condition: ${task.conditionDescription}`,
    '',
    'Answer:',
    execution.answer,
    '',
    'Reasoning:',
    execution.reasoning,
    '',
    ...(values ? ['Values:', values, ''] : []),
    ...(pageText ? ['Changed pages:', pageText, ''] : []),
    ...(changes.length > 0 ? ['Changes:', changeLines(changes), ''] : []),
    'Sources:',
    ...(sources.length === 0
      ? ['(none)']
      : sources.map((source) => `- ${source.title || source.uri}: ${source.uri}`)),
    '',
    `Checked at ${when}.`,
    '',
  ].join('\n');

  const sourceItems =
    sources.length === 0
      ? '<p>(none)</p>'
      : `<ul>\n${sources
          .map((source) => {
            const title = escapeHtml(source.title || source.uri);
            const uri = escapeHtml(source.uri);
            return isWebLink(source.uri)
              ? `<li><a href="${uri}">${title}</a><br><small>${uri}</small></li>`
              : `<li>${title}<br><small>${uri}</small></li>`;
          })
          .join('\n')}\n</ul>`;

  const html = htmlDocument([
    ...(line ? [`<p><strong>${escapeHtml(line)}</strong></p>`] : []),
    `<h2>${escapeHtml(name)}: condition met</h2>`,
    `<p><strong>Condition:</strong> ${escapeHtml(task.conditionDescription)}</p>`,
    '<h3>Answer</h3>',
    paragraphs(execution.answer),
    '<h3>Reasoning</h3>',
    paragraphs(execution.reasoning),
    ...(values ? ['<h3>Values</h3>', paragraphs(values)] : []),
    ...(pageText ? ['<h3>Changed pages</h3>', pageChangeHtml(changedPages)] : []),
    ...(changes.length > 0 ? ['<h3>Changes</h3>', paragraphs(changeLines(changes))] : []),
    '<h3>Sources</h3>',
    sourceItems,
    `<p><small>Checked at ${escapeHtml(when)}.</small></p>`,
  ]);

  const reminder = content.repeat !== null ? 'Reminder: ' : '';
  return { subject: `[Monitor] ${reminder}${name}: condition met`, text, html };
}

/** An email's HTML: the document around its body's lines. */
function htmlDocument(body: string[]): string {
  return [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"></head>',
    '<body style="font-family: sans-serif; line-height: 1.5">',
    ...body,
    '</body></html>',
    '',
  ].join('\n');
}

/** The email of the other events: subject and heading say what happened. */
function renderEventEmail(parts: MessageParts): RenderedEmail {
  const text = [
    parts.summary,
    '',
    ...parts.sections.flatMap((section) => [`${section.label}:`, section.text, '']),
    ...(parts.sources.length > 0
      ? [
          'Sources:',
          ...parts.sources.map((source) => `- ${source.title || source.uri}: ${source.uri}`),
          '',
        ]
      : []),
    `${parts.footer}.`,
    '',
  ].join('\n');
  const html = htmlDocument([
    `<h2>${escapeHtml(parts.title)}</h2>`,
    `<p>${escapeHtml(parts.summary)}</p>`,
    ...parts.sections.flatMap((section) => [
      `<h3>${escapeHtml(section.label)}</h3>`,
      paragraphs(section.text),
    ]),
    ...(parts.sources.length > 0
      ? [
          '<h3>Sources</h3>',
          `<ul>\n${parts.sources
            .map(
              (source) =>
                `<li><a href="${escapeHtml(source.uri)}">${escapeHtml(source.title || source.uri)}</a></li>`,
            )
            .join('\n')}\n</ul>`,
        ]
      : []),
    `<p><small>${escapeHtml(parts.footer)}.</small></p>`,
  ]);
  return { subject: `[Monitor] ${parts.title}`, text, html };
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
