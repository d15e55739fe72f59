import type { PageResultLine } from '../../pages/results/page-result-line';
import {
  attentionLine,
  changedPagesOf,
  changeLines,
  checkedAt,
  escapeHtml,
  isWebLink,
  messageParts,
  oneLine,
  pageChange,
  pageChangeText,
  pageValueText,
  type ExecutionContent,
  type MessageParts,
  type NotificationContent,
} from './notification-content';

/*
 * The emails of notifications: the condition-met email, and the others built from the message
 * parts every channel shares.
 */

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
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
export function htmlDocument(body: string[]): string {
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

/** Text as HTML paragraphs: an empty line apart, each line break kept. */
export function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}
