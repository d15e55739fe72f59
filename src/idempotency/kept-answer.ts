/** The largest answer a key keeps, measured as its JSON body is sent (docs/api.md, "Idempotency-Key"). */
export const MAX_KEPT_ANSWER_BYTES = 64 * 1024;

/**
 * What a key stores for an answer: the JSON of `kept` (the answer as kept: without a webhook's
 * signing secret, without echoed input), or null when the answer as sent, `sent`, is over
 * MAX_KEPT_ANSWER_BYTES and nothing is kept.
 */
export function keptBody(sent: unknown, kept: unknown): string | null {
  const sentJson = JSON.stringify(sent ?? null);
  if (Buffer.byteLength(sentJson, 'utf8') > MAX_KEPT_ANSWER_BYTES) return null;
  return kept === sent ? sentJson : JSON.stringify(kept ?? null);
}

/** An error body as kept: a 422's issues without the `input` each one echoes from the request. */
export function withoutEchoedInput(body: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(body.detail)) return body;
  return {
    ...body,
    detail: body.detail.map((issue: unknown) => {
      if (typeof issue !== 'object' || issue === null) return issue;
      const { input: _input, ...rest } = issue as Record<string, unknown>;
      return rest;
    }),
  };
}
