import type { Response } from 'supertest';

/** The canonical error bodies, asserted the same way by every test. */
export function expectDetail(response: Response, status: number, detail: string | RegExp): void {
  expect({ status: response.status, body: response.body as unknown }).toEqual({
    status,
    body: { detail: typeof detail === 'string' ? detail : expect.stringMatching(detail) },
  });
}

export interface ExpectedIssue {
  type: string;
  loc: (string | number)[];
  msg?: string | RegExp;
}

export function expectValidationError(response: Response, issues: ExpectedIssue[]): void {
  expect(response.status).toBe(422);
  const detail = (response.body as { detail: unknown }).detail;
  expect(Array.isArray(detail)).toBe(true);
  for (const issue of detail as Array<Record<string, unknown>>) {
    expect(Object.keys(issue)).toEqual(expect.arrayContaining(['type', 'loc', 'msg', 'input']));
  }
  expect(detail).toEqual(
    expect.arrayContaining(
      issues.map((issue): unknown =>
        expect.objectContaining({
          type: issue.type,
          loc: issue.loc,
          ...(issue.msg === undefined
            ? {}
            : {
                msg: typeof issue.msg === 'string' ? issue.msg : expect.stringMatching(issue.msg),
              }),
        }),
      ),
    ),
  );
}

/** The 429 body and headers (docs/api.md, "Rate limits"). */
export function expectRateLimited(response: Response): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ detail: 'Rate limit exceeded', retry_after: expect.any(Number) });
  const retryAfter = (response.body as { retry_after: number }).retry_after;
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(response.headers['retry-after']).toBe(String(retryAfter));
  for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(response.headers[header]).toMatch(/^\d+$/);
  }
}

/**
 * A 500 (docs/api.md, "Errors"): the `{"detail"}` form with a fixed reason, plus the request id
 * that the log line of the error carries (the same as the `X-Request-Id` header).
 */
export function expectServerError(response: Response, detail: string | RegExp): void {
  const requestId = response.headers['x-request-id'];
  expect(requestId).toEqual(expect.any(String));
  expect({ status: response.status, body: response.body as unknown }).toEqual({
    status: 500,
    body: {
      detail: typeof detail === 'string' ? detail : expect.stringMatching(detail),
      request_id: requestId,
    },
  });
}

/** The answer while PostgreSQL cannot be reached (docs/api.md, "Errors"). */
export function expectDatabaseUnavailable(response: Response): void {
  expect({ status: response.status, body: response.body as unknown }).toEqual({
    status: 503,
    body: { detail: 'Database unavailable' },
  });
  expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
}
