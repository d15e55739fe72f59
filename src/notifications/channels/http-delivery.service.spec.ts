import { OutboundErrorCode } from '../../common/outbound/outbound-error-code';
import { OutboundError } from '../../common/outbound/outbound-http.client';
import { outcomeOfFailure, outcomeOfStatus, retryAfterMs } from './http-delivery.service';

describe('outcomeOfStatus', () => {
  it('should succeed when the status is 2xx', () => {
    expect(outcomeOfStatus(204, undefined)).toMatchObject({ status: 'success' });
  });

  it.each([400, 401, 403, 404, 410])('should stop retrying when the status is %i', (status) => {
    expect(outcomeOfStatus(status, undefined)).toMatchObject({
      status: 'failed',
      retryable: false,
      errorMessage: expect.stringMatching(new RegExp(`^HTTP ${status} .*retries stopped$`)),
    });
  });

  it('should retry after the receiver’s delay when the status is 429 with Retry-After', () => {
    expect(outcomeOfStatus(429, '7')).toEqual({
      status: 'failed',
      errorMessage: 'HTTP 429 (Too Many Requests)',
      retryable: true,
      retryAfterMs: 7000,
    });
  });

  it('should retry on the schedule when the status is 500 or a redirect', () => {
    expect(outcomeOfStatus(500, undefined)).toEqual({
      status: 'failed',
      errorMessage: 'HTTP 500',
      retryable: true,
    });
    expect(outcomeOfStatus(302, undefined)).toEqual({
      status: 'failed',
      errorMessage: 'HTTP 302 (redirects are not followed)',
      retryable: true,
    });
  });
});

describe('outcomeOfFailure', () => {
  const url = 'https://hooks.example.com/secret-path';

  it('should stop without retrying when the SSRF guard refuses the destination', () => {
    const error = new OutboundError(
      OutboundErrorCode.BLOCKED,
      'hooks.example.com resolves to a private or reserved address',
    );
    expect(outcomeOfFailure(error, url)).toEqual({
      status: 'failed',
      errorMessage: 'Refused: hooks.example.com resolves to a private or reserved address',
      retryable: false,
    });
  });

  it('should name the host, never the path, and retry when DNS fails', () => {
    expect(
      outcomeOfFailure(new OutboundError(OutboundErrorCode.DNS, 'queryA ENOTFOUND'), url),
    ).toEqual({
      status: 'failed',
      errorMessage: 'DNS lookup of hooks.example.com failed: queryA ENOTFOUND',
      retryable: true,
    });
  });

  it('should say timed out and retry when the receiver took the connection and did not answer', () => {
    const error = new OutboundError(
      OutboundErrorCode.TIMEOUT,
      'no answer',
      undefined,
      undefined,
      true,
    );
    expect(outcomeOfFailure(error, url)).toEqual({
      status: 'failed',
      errorMessage: 'timed out',
      retryable: true,
    });
  });

  it.each([
    [
      'refused',
      new OutboundError(
        OutboundErrorCode.NETWORK,
        'connect ECONNREFUSED 10.0.0.7:25',
        'ECONNREFUSED',
      ),
    ],
    [
      'unreachable',
      new OutboundError(OutboundErrorCode.NETWORK, 'connect EHOSTUNREACH', 'EHOSTUNREACH'),
    ],
    [
      'reset',
      new OutboundError(OutboundErrorCode.NETWORK, 'socket hang up', 'ECONNRESET', undefined, true),
    ],
    [
      'never opened before the deadline',
      new OutboundError(OutboundErrorCode.TIMEOUT, 'no answer within 15000 ms'),
    ],
  ])(
    'should say only connection failed, without the system error, when the connection was %s',
    (_how, error) => {
      expect(outcomeOfFailure(error, url)).toEqual({
        status: 'failed',
        errorMessage: 'connection failed',
        retryable: true,
      });
    },
  );
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('should read seconds and HTTP dates when the header is usable', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
  });

  it('should give null when the header is missing or unreadable', () => {
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });

  it('should cap the delay at a day when the receiver asks for longer', () => {
    expect(retryAfterMs(String(10 * 24 * 3600), now)).toBe(24 * 3600_000);
  });
});
