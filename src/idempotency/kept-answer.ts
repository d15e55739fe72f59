/** The largest answer a key keeps, measured as its JSON body is sent (docs/api.md, "Idempotency-Key"). */
export const MAX_KEPT_ANSWER_BYTES = 64 * 1024;

/**
 * What a key stores for an answer: the JSON of `kept` (the answer as kept: without credentials,
 * without echoed input), or null when the answer as sent, `sent`, is over
 * MAX_KEPT_ANSWER_BYTES and nothing is kept.
 */
export function keptBody(sent: unknown, kept: unknown): string | null {
  const sentJson = JSON.stringify(sent ?? null);
  if (Buffer.byteLength(sentJson, 'utf8') > MAX_KEPT_ANSWER_BYTES) return null;
  return kept === sent ? sentJson : JSON.stringify(kept ?? null);
}

/**
 * A record of an answer as kept: each of its `credentials` that it holds is null, so no secret
 * is stored a second time (docs/api.md, "Idempotency-Key"). The owner still reads them from the
 * record itself.
 */
export function withoutCredentials(
  record: object,
  credentials: readonly string[],
): Record<string, unknown> {
  const kept: Record<string, unknown> = { ...record };
  for (const field of credentials) if (kept[field] !== undefined) kept[field] = null;
  return kept;
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
