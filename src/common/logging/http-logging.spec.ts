import type { IncomingMessage } from 'node:http';
import { loggedRoute, requestId } from './http-logging';

function request(fields: Record<string, unknown>): IncomingMessage {
  return { headers: {}, ...fields } as unknown as IncomingMessage;
}

describe('request logging', () => {
  it('should name the matched route pattern when a route matched', () => {
    const matched = request({
      route: { path: '/api/v1/email-verifications/:email' },
      originalUrl: '/api/v1/email-verifications/ops%40example.org',
    });
    expect(loggedRoute(matched)).toBe('/api/v1/email-verifications/:email');
  });

  it('should name the path without its query string, emails masked, when no route matched', () => {
    expect(loggedRoute(request({ originalUrl: '/nope/a@b.org/x?token=secret' }))).toBe(
      '/nope/[email]/x',
    );
    expect(loggedRoute(request({ url: '/health?x=1' }))).toBe('/health');
  });

  it('should name at most the first 200 characters of a path that matched no route', () => {
    const path = `/${'a'.repeat(100_000)}/ops@example.org`;
    expect(loggedRoute(request({ originalUrl: path }))).toBe(`/${'a'.repeat(199)}`);
    expect(loggedRoute(request({ originalUrl: `/x/ops@example.org/${'b'.repeat(300)}` }))).toBe(
      `/x/[email]/${'b'.repeat(189)}`,
    );
  });

  it('should keep a sane incoming request id and replace any other', () => {
    expect(requestId(request({ headers: { 'x-request-id': 'trace-1:a.b_c' } }))).toBe(
      'trace-1:a.b_c',
    );
    expect(requestId(request({ headers: { 'x-request-id': 'bad id' } }))).toMatch(
      /^[0-9a-f-]{36}$/,
    );
    expect(requestId(request({ headers: { 'x-request-id': 'x'.repeat(129) } }))).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});
