import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { Response, Test } from 'supertest';
import { expectDetail } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { SlowDnsServer } from '../support/slow-dns-server';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** How long the name server takes to answer: the window in which the admin deactivates. */
const DNS_DELAY_MS = 1500;
const HOOK_HOST = 'hooks.deactivation.test';
const DEACTIVATED = 'User account is deactivated';

/**
 * Deactivation is final for the user's work (docs/api.md, "Admin"): a request that passed the
 * guard before a deactivation committed changes nothing and answers 401. Each case holds a request
 * between the guard and its write, deactivates the user meanwhile, then lets the request go on.
 */
describe('Requests that passed the guard before a deactivation', () => {
  let testApp: TestApp;
  let dns: SlowDnsServer;
  let smtp: SmtpTestServer;
  let receiver: WebhookReceiver;
  let factory: Factory;
  let admin: TestUser;

  beforeAll(async () => {
    dns = await new SlowDnsServer('127.0.0.1', DNS_DELAY_MS).start();
    smtp = await new SmtpTestServer().start();
    receiver = await new WebhookReceiver().start();
    testApp = await startTestApp({ env: { DNS_SERVERS: dns.address, SMTP_URL: smtp.url } });
    factory = new Factory(testApp);
    admin = await factory.user({ admin: true });
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
    await smtp.stop();
    await dns.stop();
  });

  async function deactivate(user: TestUser): Promise<void> {
    await testApp.http
      .patch(`/admin/users/${user.id}/deactivate`)
      .set('Authorization', admin.auth)
      .expect(200);
  }

  /** Sends `request` now and answers its response once it has one. */
  function inFlight(request: Test): Promise<Response> {
    return Promise.resolve(request);
  }

  describe('held in a slow DNS lookup of a hook host', () => {
    const hookUrl = () => `http://${HOOK_HOST}:${receiver.port}/hook-${randomUUID()}`;

    /** Sends `request`, deactivates the user while it waits on the name server, answers it. */
    async function deactivatedDuringLookup(user: TestUser, request: Test): Promise<Response> {
      const queriesBefore = dns.queries;
      const response = inFlight(request);
      await waitFor(async () => dns.queries > queriesBefore, { what: 'the DNS lookup' });
      await deactivate(user);
      return response;
    }

    it('should answer 401 and leave the task paused when an update resuming it passed the guard first', async () => {
      const user = await factory.user();
      const task = await factory.task(user, { name: 'Before' });
      const response = await deactivatedDuringLookup(
        user,
        testApp.http
          .put(`/api/v1/tasks/${task.id}`)
          .set('Authorization', user.auth)
          .send({
            name: 'After',
            state: 'active',
            notifications: [{ type: 'webhook', url: hookUrl() }],
          }),
      );
      expectDetail(response, 401, DEACTIVATED);
      const { rows } = await testApp.db.query(
        'SELECT name, state, check_job_id, notifications FROM tasks WHERE id = $1',
        [task.id],
      );
      expect(rows[0]).toEqual({
        name: 'Before',
        state: 'paused',
        check_job_id: null,
        notifications: [],
      });
    });

    it('should answer 401 and record nothing when a test send passed the guard first', async () => {
      const user = await factory.user();
      const task = await factory.task(user, {
        notifications: [{ type: 'webhook', url: hookUrl() }],
      });
      const response = await deactivatedDuringLookup(
        user,
        testApp.http
          .post(`/api/v1/tasks/${task.id}/notifications/test`)
          .set('Authorization', user.auth),
      );
      expectDetail(response, 401, DEACTIVATED);
      const { rows } = await testApp.db.query(
        'SELECT count(*)::int AS sends FROM notification_sends WHERE task_id = $1',
        [task.id],
      );
      expect(rows[0]).toEqual({ sends: 0 });
    });
  });

  describe('held at the rate limit, after authentication', () => {
    /**
     * Holds the requests of `user`'s API key where the rate limit counts them, which is after
     * the guard authenticated them: their minute counter is locked (this window's and the next,
     * in case the minute turns) until the returned release.
     */
    async function holdAfterGuard(user: TestUser): Promise<() => Promise<void>> {
      const client: PoolClient = await testApp.db.connect();
      await client.query('BEGIN');
      const minuteStart = Math.floor(Date.now() / 60_000) * 60_000;
      for (const start of [minuteStart, minuteStart + 60_000]) {
        await client.query(
          `INSERT INTO rate_limit_counters (bucket, window_start, hits, expires_at)
           VALUES ($1, $2, 0, $3)
           ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits`,
          [`key:${user.apiKeyId}:m`, new Date(start), new Date(start + 60_000)],
        );
      }
      return async () => {
        await client.query('ROLLBACK');
        client.release();
      };
    }

    async function requestsWaitingOnCounters(): Promise<number> {
      const { rows } = await testApp.db.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock'
           AND query LIKE '%INSERT INTO rate_limit_counters%'`,
      );
      return rows[0].waiting;
    }

    interface RaceCase {
      name: string;
      /** Makes what the request acts on; answers what `request` and `unchanged` need. */
      arrange: (user: TestUser) => Promise<string>;
      request: (user: TestUser, subject: string) => Test;
      /** What the request would have changed, read from the database. */
      state: (user: TestUser, subject: string) => Promise<unknown>;
    }

    const pendingAddress = async (user: TestUser): Promise<string> => {
      const address = `verify-${randomUUID()}@example.com`;
      await testApp.http
        .post('/api/v1/email-verifications')
        .set('Authorization', user.auth)
        .send({ email: address })
        .expect(200);
      return address;
    };
    const verificationRow = async (user: TestUser, address: string): Promise<unknown[]> =>
      (
        await testApp.db.query<{ status: string; failed_attempts: number }>(
          `SELECT status, failed_attempts FROM email_verifications WHERE user_id = $1 AND email = $2`,
          [user.id, address],
        )
      ).rows;

    const cases: RaceCase[] = [
      {
        name: 'making a task public',
        arrange: async (user) => {
          await testApp.http
            .patch('/api/v1/users/me/username')
            .set('Authorization', user.auth)
            .send({ username: `race_${randomUUID().slice(0, 8)}` })
            .expect(200);
          return (await factory.task(user)).id;
        },
        request: (user, taskId) =>
          testApp.http
            .patch(`/api/v1/tasks/${taskId}/visibility`)
            .set('Authorization', user.auth)
            .send({ is_public: true }),
        state: async (_user, taskId) =>
          (
            await testApp.db.query<{ is_public: boolean }>(
              'SELECT is_public FROM tasks WHERE id = $1',
              [taskId],
            )
          ).rows,
      },
      {
        name: 'setting the username',
        arrange: () => Promise.resolve(`race_${randomUUID().slice(0, 8)}`),
        request: (user, username) =>
          testApp.http
            .patch('/api/v1/users/me/username')
            .set('Authorization', user.auth)
            .send({ username }),
        state: async (user) =>
          (
            await testApp.db.query<{ username: string | null }>(
              'SELECT username FROM users WHERE id = $1',
              [user.id],
            )
          ).rows,
      },
      {
        name: 'asking for a verification code',
        arrange: () => Promise.resolve(`verify-${randomUUID()}@example.com`),
        request: (user, address) =>
          testApp.http
            .post('/api/v1/email-verifications')
            .set('Authorization', user.auth)
            .send({ email: address }),
        state: async (user, address) => ({
          rows: await verificationRow(user, address),
          mails: smtp.messagesTo(address).length,
        }),
      },
      {
        name: 'confirming a code',
        arrange: pendingAddress,
        request: (user, address) =>
          testApp.http
            .post('/api/v1/email-verifications/confirm')
            .set('Authorization', user.auth)
            .send({ email: address, code: '000000' }),
        state: verificationRow,
      },
      {
        name: 'removing a verified address',
        arrange: pendingAddress,
        request: (user, address) =>
          testApp.http
            .delete(`/api/v1/email-verifications/${encodeURIComponent(address)}`)
            .set('Authorization', user.auth),
        state: verificationRow,
      },
      {
        name: 'revoking an API key',
        arrange: async (user) => {
          const created = await testApp.http
            .post('/auth/api-keys')
            .set('Authorization', user.auth)
            .send({ name: 'second' })
            .expect(200);
          return (created.body as { id: string }).id;
        },
        request: (user, keyId) =>
          testApp.http.delete(`/auth/api-keys/${keyId}`).set('Authorization', user.auth),
        state: async (_user, keyId) =>
          (
            await testApp.db.query<{ state: string }>('SELECT state FROM api_keys WHERE id = $1', [
              keyId,
            ])
          ).rows,
      },
      {
        name: 'forking a task',
        arrange: async (user) => (await factory.task(user)).id,
        request: (user, taskId) =>
          testApp.http.post(`/api/v1/tasks/${taskId}/fork`).set('Authorization', user.auth),
        state: async (user) =>
          (
            await testApp.db.query<{ id: string }>('SELECT id FROM tasks WHERE user_id = $1', [
              user.id,
            ])
          ).rows,
      },
    ];

    it.each(cases.map((raceCase) => [raceCase.name, raceCase] as const))(
      'should answer 401 and change nothing when %s passed the guard first',
      async (_name, raceCase) => {
        const user = await factory.user();
        const subject = await raceCase.arrange(user);
        const before = await raceCase.state(user, subject);
        const release = await holdAfterGuard(user);
        let response: Promise<Response>;
        try {
          response = inFlight(raceCase.request(user, subject));
          await waitFor(async () => (await requestsWaitingOnCounters()) > 0, {
            what: 'the request to reach the rate limit',
          });
          await deactivate(user);
        } finally {
          await release();
        }
        expectDetail(await response, 401, DEACTIVATED);
        expect(await raceCase.state(user, subject)).toEqual(before);
      },
    );
  });
});
