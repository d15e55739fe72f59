import { Writable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import { hostileTexts } from '../../../test/support/hostile-text';
import { LogRedaction, ownText, type LogSecrets } from './log-redaction';
import { createRootLogger } from './root-logger';

/** What a provider or channel might bring: a field name and a shape of its own. */
const PAGER: LogSecrets = {
  fields: ['pager_key'],
  shapes: [{ pattern: /\bpgr_[A-Za-z0-9]{8,}/g, mask: 'pgr_[Redacted]', clue: /pgr_/ }],
};

const own = new LogRedaction([]);
const scrub = (text: string) => own.scrub(text);

function capture(): { lines: () => Array<Record<string, unknown>>; stream: Writable } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('log redaction', () => {
  it.each([
    ['an API key', 'key sk_AbCdEfGhIjKlMnOpQrStUvWxYz012345 refused', 'key sk_[Redacted] refused'],
    ['a bearer token', 'Authorization: Bearer abc.def', 'Authorization: Bearer [Redacted]'],
    ['a JWT', 'token eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl', 'token [Redacted]'],
    ['SMTP credentials', 'smtp://monitor:s3cret@mail:587', 'smtp://[Redacted]@mail:587'],
    ['an email address', 'sent to Ops.Team+x@example.org', 'sent to [email]'],
    [
      'an encoded email address',
      '/email-verifications/ops%40example.org',
      '/email-verifications/[email]',
    ],
  ])('should mask %s in text', (_kind, text, expected) => {
    expect(scrub(text)).toBe(expected);
  });

  it.each(Object.entries(hostileTexts(100_000)))(
    'should mask a secret after %s without rescanning the text',
    (_kind, text) => {
      // Linear masking takes about a millisecond here, a backtracking shape several seconds;
      // the bound is twenty times what the log may spend on 100 kB (docs/logging.md).
      const started = process.cpuUsage();
      const masked = scrub(`${text} sk_AbCdEf0123 ops@example.org`);
      const used = process.cpuUsage(started);
      expect(masked).toBe(`${text} sk_[Redacted] [email]`);
      expect((used.user + used.system) / 1000).toBeLessThan(1000);
    },
  );

  it('should mask a secret that ends a run of its own characters', () => {
    expect(scrub('x.y.user+tag@host.example')).toBe('[email]');
    expect(scrub('1.smtp://monitor:pw@mail:587')).toBe('1.smtp://[Redacted]@mail:587');
    expect(scrub('a-eyJhbGciOi.eyJzdWIiOi.c2ln')).toBe('a-[Redacted]');
  });

  it('should mask the shapes and censor the fields that a provider or channel declares', () => {
    const redaction = new LogRedaction([PAGER]);
    expect(redaction.scrub('paging with pgr_AbCdEf012 failed')).toBe(
      'paging with pgr_[Redacted] failed',
    );
    expect(scrub('pgr_AbCdEf012')).toBe('pgr_AbCdEf012');
    expect(redaction.paths).toEqual(expect.arrayContaining(['pager_key', 'config.pager_key']));
  });

  it.each([
    ['not global', /\bpgr_[A-Za-z0-9]{8,}/],
    ['free to start inside a run', /pgr_[A-Za-z0-9]{8,}/g],
    ['a run with no start of its own', /[a-z]+@example/g],
  ])('should refuse a shape when it is %s', (_kind, pattern) => {
    expect(() => new LogRedaction([{ shapes: [{ pattern, mask: 'x', clue: /@|pgr_/ }] }])).toThrow(
      /must be global and start with \\b or a look-behind/,
    );
  });

  it('should leave ordinary text alone', () => {
    const text = 'Check failed: Gemini API request failed with HTTP 503 (attempt 2 of 4)';
    expect(scrub(text)).toBe(text);
  });

  it('should keep only the class, message, code and stack of an error', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
      config: { headers: { Authorization: 'Bearer x' } },
      parameters: ['whsec_abcdef'],
    });
    const logged = own.serializeError(error);
    expect(Object.keys(logged).sort()).toEqual(['code', 'message', 'stack', 'type']);
    expect(logged).toMatchObject({ type: 'Error', code: 'ECONNREFUSED' });
  });

  it('should log a failed statement by its SQLSTATE and name, without its parameters or message', () => {
    const driverError = Object.assign(new Error('invalid input syntax for type uuid: "hunter2"'), {
      code: '22P02',
      detail: 'hunter2',
    });
    const failed = new QueryFailedError(
      'UPDATE "tasks" SET "notifications" = $1 WHERE "id" = $2',
      ['hunter2', 'x'],
      driverError,
    );
    const logged = own.serializeError(failed);
    expect(logged).toMatchObject({
      type: 'QueryFailedError',
      code: '22P02',
      statement: 'UPDATE "tasks"',
      message: 'UPDATE "tasks" failed',
    });
    expect(logged.stack).toMatch(/^QueryFailedError: UPDATE "tasks" failed\n {4}at /);
    expect(JSON.stringify(logged)).not.toContain('hunter2');

    const { stream, lines } = capture();
    createRootLogger({ level: 'info', destination: stream, secrets: [] }).error({ err: failed });
    expect(JSON.stringify(lines())).not.toContain('hunter2');
    expect(lines()[0]).toMatchObject({ msg: 'UPDATE "tasks" failed' });
  });

  it('should censor secret fields and scrub messages when the logger writes a line', () => {
    const { stream, lines } = capture();
    const logger = createRootLogger({ level: 'info', destination: stream, secrets: [PAGER] });
    logger.info(
      {
        token: 'tk_1',
        config: { secret: 'whsec_1', url: 'https://x/y' },
        channel: { pager_key: 'x', chat_id: '-100' },
        note: 'to a@b.org',
      },
      'sent with sk_0123456789 after pgr_0123456789',
    );
    logger.warn({ err: new Error('Bearer abc') });
    logger.warn({ error: new Error('for a@b.org'), count: 2 }, 'failed');
    logger.info(ownText({ hint: 'npm run create-key -- --email you@example.com', url: 'x' }));
    logger.debug('not written at info');
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'info',
        token: '[Redacted]',
        config: { secret: '[Redacted]', url: '[Redacted]' },
        channel: { pager_key: '[Redacted]', chat_id: '-100' },
        note: 'to [email]',
        msg: 'sent with sk_[Redacted] after pgr_[Redacted]',
      }),
      expect.objectContaining({
        level: 'warn',
        err: expect.objectContaining({ message: 'Bearer [Redacted]' }) as unknown,
        msg: 'Bearer [Redacted]',
      }),
      expect.objectContaining({
        error: expect.objectContaining({ message: 'for [email]' }) as unknown,
        count: 2,
        msg: 'failed',
      }),
      expect.objectContaining({
        hint: 'npm run create-key -- --email you@example.com',
        url: '[Redacted]',
      }),
    ]);
  });
});
