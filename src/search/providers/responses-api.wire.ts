import { asRecord, hostnameOf } from '../model-reply.parser';
import { tokenCount } from '../provider-usage';

/**
 * What OpenAI's Responses API and Perplexity's Agent API share: the reply text, its
 * `url_citation` annotations and the token counts.
 */
function outputItems(body: unknown): Array<Record<string, unknown>> {
  const output = asRecord(body)?.output;
  return Array.isArray(output)
    ? output.map(asRecord).filter((item): item is Record<string, unknown> => item !== null)
    : [];
}

export function itemsOfType(body: unknown, type: string): Array<Record<string, unknown>> {
  return outputItems(body).filter((item) => item.type === type);
}

function outputTexts(body: unknown): Array<Record<string, unknown>> {
  return itemsOfType(body, 'message').flatMap((message) => {
    const content = message.content;
    return (Array.isArray(content) ? content : [])
      .map(asRecord)
      .filter((part): part is Record<string, unknown> => part?.type === 'output_text');
  });
}

/** `output[type=message].content[type=output_text].text`, concatenated. */
export function responsesText(body: unknown): string {
  return outputTexts(body)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** The `url_citation` annotations of the reply text, as `{uri, title}`. */
export function urlCitations(body: unknown): Array<{ uri: unknown; title: unknown }> {
  return outputTexts(body).flatMap((part) => {
    const annotations = Array.isArray(part.annotations) ? part.annotations : [];
    return annotations
      .map(asRecord)
      .filter((annotation) => annotation?.type === 'url_citation')
      .map((annotation) => ({ uri: annotation?.url, title: annotation?.title }));
  });
}

/** A source known by its URL only: the host stands for the title. */
export function urlSource(url: unknown): { uri: unknown; title: string } {
  return { uri: url, title: typeof url === 'string' ? hostnameOf(url) : '' };
}

export function responsesUsage(body: unknown): {
  inputTokens: number;
  outputTokens: number;
  usage: Record<string, unknown> | null;
} {
  const usage = asRecord(asRecord(body)?.usage);
  return {
    inputTokens: tokenCount(usage?.input_tokens),
    outputTokens: tokenCount(usage?.output_tokens),
    usage,
  };
}

/** The hint that explains an empty or cut reply: an `incomplete` status and its reason. */
export function incompleteHint(body: unknown): string {
  const root = asRecord(body);
  if (root?.status !== 'incomplete') return '';
  const reason = asRecord(root.incomplete_details)?.reason;
  return ` (incomplete: ${typeof reason === 'string' ? reason : 'unknown reason'})`;
}
