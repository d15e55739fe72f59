import { randomUUID } from 'node:crypto';
import { expectDetail, expectRateLimited, expectValidationError } from '../support/errors';
import { startTestApp, type TestApp } from '../support/test-app';
import { clientIp, inOneWindow } from '../sharing/sharing-fixtures';

describe('Waitlist', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { TRUST_PROXY: '1' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  function join(body: unknown, ip = clientIp()) {
    return testApp.http
      .post('/public/waitlist')
      .set('X-Forwarded-For', ip)
      .send(body as object);
  }

  it('should add the email and answer 200 with a message and the position in line', async () => {
    const first = await join({ email: `${randomUUID()}@example.com` });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      message: expect.stringMatching(/waitlist/i),
      position: expect.any(Number),
    });
    const second = await join({ email: `${randomUUID()}@example.com` });
    expect((second.body as { position: number }).position).toBe(
      (first.body as { position: number }).position + 1,
    );
  });

  it('should number positions without gaps even after refused duplicates', async () => {
    const email = `${randomUUID()}@example.com`;
    const first = (await join({ email }).expect(200)).body as { position: number };
    await join({ email }).expect(409);
    await join({ email }).expect(409);
    const next = (await join({ email: `${randomUUID()}@example.com` }).expect(200)).body as {
      position: number;
    };
    expect(next.position).toBe(first.position + 1);
  });

  it('should answer 409 when the email is already there, whatever its case', async () => {
    const local = randomUUID();
    await join({ email: `${local}@Example.com` }).expect(200);
    expectDetail(
      await join({ email: `${local}@example.com` }),
      409,
      'This email is already on the waitlist',
    );
    expectDetail(
      await join({ email: `  ${local.toUpperCase()}@EXAMPLE.COM ` }),
      409,
      'This email is already on the waitlist',
    );
    const stored = await testApp.db.query<{ email: string }>(
      'SELECT email FROM waitlist_entries WHERE email ILIKE $1',
      [`${local}@%`],
    );
    expect(stored.rows).toEqual([{ email: `${local}@example.com` }]);
  });

  it('should give one of two simultaneous joins with one email a 409', async () => {
    const email = `${randomUUID()}@example.com`;
    const responses = await Promise.all([join({ email }), join({ email: email.toUpperCase() })]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
  });

  it.each([
    'not-an-email',
    'a@b',
    '@example.com',
    'ada@',
    'two@@example.com',
    'sp ace@example.com',
  ])('should answer 422 for the invalid email %j', async (email) => {
    expectValidationError(await join({ email }), [
      { type: 'value_error', loc: ['body', 'email'], msg: 'value is not a valid email address' },
    ]);
  });

  it('should answer 422 when the email is missing, not a string or too long', async () => {
    expectValidationError(await join({}), [
      { type: 'missing', loc: ['body', 'email'], msg: 'Field required' },
    ]);
    expectValidationError(await join({ email: 42 }), [
      { type: 'string_type', loc: ['body', 'email'] },
    ]);
    expectValidationError(await join({ email: `${'a'.repeat(310)}@example.com` }), [
      { type: 'string_too_long', loc: ['body', 'email'] },
    ]);
  });

  it('should answer the 6th join of a minute from one client with 429', async () => {
    await inOneWindow(testApp, async () => {
      const ip = clientIp();
      for (let index = 0; index < 5; index += 1) {
        const response = await join({ email: `${randomUUID()}@example.com` }, ip).expect(200);
        expect(response.headers['x-ratelimit-limit']).toBe('5');
      }
      const limited = await join({ email: `${randomUUID()}@example.com` }, ip);
      expectRateLimited(limited);
      await join({ email: `${randomUUID()}@example.com` }).expect(200);
    });
  });
});
