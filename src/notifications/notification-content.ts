import type { GroundingSource } from '../search/search.types';

/** What a notification is about: the task and the execution that met its condition. */
export interface NotificationContent {
  task: {
    id: string;
    name: string;
    searchQuery: string;
    conditionDescription: string;
  };
  execution: {
    id: string;
    conditionMet: boolean;
    answer: string;
    reasoning: string;
    groundingSources: GroundingSource[];
    completedAt: Date;
  };
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** Contract section 2, "Webhook delivery": the JSON body, identical for every attempt. */
export function webhookBody(content: NotificationContent): string {
  const { task, execution } = content;
  return JSON.stringify({
    type: 'task.condition_met',
    // The time of the event (the check), not of the attempt: `webhook-timestamp` carries that.
    timestamp: execution.completedAt.toISOString(),
    data: {
      task: {
        id: task.id,
        name: task.name,
        search_query: task.searchQuery,
        condition_description: task.conditionDescription,
      },
      execution: {
        id: execution.id,
        condition_met: execution.conditionMet,
        answer: execution.answer,
        reasoning: execution.reasoning,
        grounding_sources: execution.groundingSources,
        completed_at: execution.completedAt.toISOString(),
      },
    },
  });
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
function oneLine(text: string): string {
  return text.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();
}

function isWebLink(uri: string): boolean {
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

/** The email of contract section 2, "Email": the subject names the task; the body holds the rest. */
export function renderConditionMetEmail(content: NotificationContent): RenderedEmail {
  const { task, execution } = content;
  const name = oneLine(task.name) || 'Monitor';
  const sources = execution.groundingSources;
  const when = checkedAt(execution.completedAt);

  const text = [
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

  const html = [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"></head>',
    '<body style="font-family: sans-serif; line-height: 1.5">',
    `<h2>${escapeHtml(name)}: condition met</h2>`,
    `<p><strong>Condition:</strong> ${escapeHtml(task.conditionDescription)}</p>`,
    '<h3>Answer</h3>',
    paragraphs(execution.answer),
    '<h3>Reasoning</h3>',
    paragraphs(execution.reasoning),
    '<h3>Sources</h3>',
    sourceItems,
    `<p><small>Checked at ${escapeHtml(when)}.</small></p>`,
    '</body></html>',
    '',
  ].join('\n');

  return { subject: `[Monitor] ${name}: condition met`, text, html };
}
