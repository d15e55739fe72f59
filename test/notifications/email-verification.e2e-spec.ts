import { VerificationCodeSweeper } from '../../src/notifications/email-verification/verification-code.sweeper';
import { Factory, type TestUser } from '../support/factory';
import { expectDetail, expectRateLimited } from '../support/errors';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { metExecution, queueDeliveries, waitForSends } from './notification-test-helpers';

/** Verified email recipients (docs/api.md, "Notifications"), under the `verified` policy. */
describe('Verified email recipients', () => {
  let testApp: TestApp;
  let smtp: SmtpTestServer;
  let user: TestUser;

  beforeAll(async () => {
    smtp = await new SmtpTestServer().start();
    testApp = await startTestApp({
      env: {
        EMAIL_RECIPIENT_POLICY: 'verified',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Monitor <monitor@example.net>',
      },
    });
    user = await new Factory(testApp).user({ emailVerified: true });
  });

  afterAll(async () => {
    await testApp.close();
    await smtp.stop();
  });

  function requestCode(address: string, caller: TestUser = user) {
    return testApp.http
      .post('/api/v1/email-verifications')
      .set('Authorization', caller.auth)
      .send({ email: address });
  }

  function confirm(address: string, code: string, caller: TestUser = user) {
    return testApp.http
      .post('/api/v1/email-verifications/confirm')
      .set('Authorization', caller.auth)
      .send({ email: address, code });
  }

  function createWithEmail(address: string) {
    return testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .send({
        search_query: 'Has version 2.0 shipped yet?',
        state: 'paused',
        notifications: [{ type: 'email', address }],
      });
  }

  async function mailedCode(address: string, count = 1): Promise<string> {
    const message = await waitFor(async () => smtp.messagesTo(address)[count - 1], {
      what: `code ${count} for ${address}`,
    });
    return /\b(\d{6})\b/.exec(message.subject)?.[1] as string;
  }

  it('should refuse an unverified address and accept the owner’s own verified email', async () => {
    expectDetail(
      await createWithEmail('team@example.org'),
      400,
      'Invalid notification: email address team@example.org is not verified',
    );
    expect((await createWithEmail(user.email)).status).toBe(200);
  });

  it('should mail a 6-digit code, confirm it, list it and then accept the address', async () => {
    const address = 'ops@example.org';
    const requested = await requestCode(address).expect(200);
    expect(requested.body).toEqual({ email: address, status: 'pending' });
    const code = await mailedCode(address);
    expect(code).toMatch(/^\d{6}$/);
    const { rows } = await testApp.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM email_verifications WHERE email = $1',
      [address],
    );
    expect(rows[0].code_hash).not.toContain(code);
    expect((await confirm(address, code).expect(200)).body).toEqual({
      email: address,
      status: 'verified',
    });
    const list = await testApp.http
      .get('/api/v1/email-verifications')
      .set('Authorization', user.auth)
      .expect(200);
    expect(list.body).toEqual([
      { email: address, status: 'verified', verified_at: expect.any(String) },
    ]);
    expect((await createWithEmail(address)).status).toBe(200);
  });

  it('should refuse wrong codes and void the code after five', async () => {
    const address = 'wrong@example.org';
    await requestCode(address).expect(200);
    const code = await mailedCode(address);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt++) {
      expectDetail(await confirm(address, wrong), 400, 'Wrong verification code');
    }
    expectDetail(await confirm(address, code), 400, /void after too many wrong tries/);
    expect((await confirm(address, 'abc')).status).toBe(422);
  });

  it('should refuse an expired code', async () => {
    const address = 'late@example.org';
    await requestCode(address).expect(200);
    const code = await mailedCode(address);
    await testApp.db.query(
      "UPDATE email_verifications SET code_expires_at = now() - interval '1 second' WHERE email = $1",
      [address],
    );
    expectDetail(await confirm(address, code), 400, /expired/);
  });

  it('should delete a pending verification once its code expired and keep the others', async () => {
    const owner = await new Factory(testApp).user();
    const [stale, fresh, kept] = ['stale', 'fresh', 'kept'].map(
      (name) => `${name}-${owner.id}@example.org`,
    );
    for (const address of [stale, fresh, kept]) await requestCode(address, owner).expect(200);
    await confirm(kept, await mailedCode(kept), owner).expect(200);
    const staleCode = await mailedCode(stale);
    await testApp.db.query(
      "UPDATE email_verifications SET code_expires_at = now() - interval '1 minute' WHERE email = $1",
      [stale],
    );
    // Expired codes of other tests go too.
    expect(await testApp.app.get(VerificationCodeSweeper).removeExpired()).toBeGreaterThanOrEqual(
      1,
    );
    const list = await testApp.http
      .get('/api/v1/email-verifications')
      .set('Authorization', owner.auth)
      .expect(200);
    expect(list.body).toEqual([
      { email: fresh, status: 'pending', verified_at: null },
      { email: kept, status: 'verified', verified_at: expect.any(String) },
    ]);
    expectDetail(
      await confirm(stale, staleCode, owner),
      400,
      `No verification code was requested for ${stale}`,
    );
  });

  it('should fail later sends to an address once its verification is removed', async () => {
    const address = 'removed@example.org';
    await requestCode(address).expect(200);
    await confirm(address, await mailedCode(address)).expect(200);
    const { taskId, executionId } = await metExecution(testApp, user, [{ type: 'email', address }]);
    await testApp.http
      .delete(`/api/v1/email-verifications/${encodeURIComponent(address)}`)
      .set('Authorization', user.auth)
      .expect(204);
    expectDetail(
      await testApp.http
        .delete(`/api/v1/email-verifications/${address}`)
        .set('Authorization', user.auth),
      404,
      'Email verification not found',
    );
    await queueDeliveries(testApp, executionId, taskId, ['email']);
    const [send] = await waitForSends(testApp, taskId, 1);
    expect(send).toMatchObject({
      status: 'failed',
      error_message: `email address ${address} is not verified`,
    });
  });

  it('should allow five code requests an hour per user and answer the sixth with 429', async () => {
    const other = await new Factory(testApp).user();
    for (let index = 0; index < 5; index++) {
      await requestCode(`burst${index}@example.org`, other).expect(200);
    }
    expectRateLimited(await requestCode('burst5@example.org', other));
  });
});
