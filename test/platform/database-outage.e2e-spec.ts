import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { isDatabaseUnavailable } from '../../src/database/database-errors';
import { DeliveryOutcomeRecorder } from '../../src/notifications/delivery/delivery-outcome.recorder';
import { expectDatabaseUnavailable } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import {
  answerByQuery,
  createTask,
  sendRows,
  waitForFinalDeliveries,
} from '../notifications/notification-test-helpers';

jest.setTimeout(60_000);

/** Runs SQL as the test server's administrator, outside the database under test. */
async function asAdministrator(sql: string): Promise<void> {
  const client = new Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Makes the app's database refuse connections and ends those it has; undone by the result. */
async function stopDatabase(testApp: TestApp): Promise<() => Promise<void>> {
  const name = new URL(testApp.databaseUrl).pathname.slice(1);
  await asAdministrator(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  await asAdministrator(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
  );
  return () => asAdministrator(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
}

/** docs/architecture.md, "A database outage is waited out". */
describe('A database outage', () => {
  let gemini: GeminiStandIn;
  let smtp: SmtpTestServer;
  let testApp: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    answerByQuery(gemini);
    smtp = await new SmtpTestServer().start();
    testApp = await startTestApp({
      gemini,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Monitor <alerts@monitor.test>' },
    });
    user = await new Factory(testApp).user();
  });

  afterAll(async () => {
    await testApp.close();
    await smtp.stop();
    await gemini.stop();
  });

  it('should answer 503 Database unavailable with Retry-After while PostgreSQL is unreachable, then serve again', async () => {
    await testApp.http.get('/api/v1/tasks').set('Authorization', user.auth).expect(200);

    const restart = await stopDatabase(testApp);
    try {
      const response = await testApp.http.get('/api/v1/tasks').set('Authorization', user.auth);
      expectDatabaseUnavailable(response);
      const write = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .send({ search_query: 'Is the new release out yet?', state: 'paused' });
      expectDatabaseUnavailable(write);
    } finally {
      await restart();
    }

    // The process stayed up; its pool connects again.
    await waitFor(
      async () => {
        const response = await testApp.http.get('/api/v1/tasks').set('Authorization', user.auth);
        return response.status === 200;
      },
      { timeoutMs: 15_000, what: 'GET /api/v1/tasks answering 200 again' },
    );
  });

  it('should record an email sent during the outage as soon as the database answers, not after the job expires', async () => {
    const to = `outage-${randomUUID()}@example.com`;
    const recorder = testApp.app.get(DeliveryOutcomeRecorder);
    // Watched, not replaced: each try at recording an attempt runs as it would.
    const recordings = jest.spyOn(recorder, 'recordSendAttempt');
    // The server holds its final reply, so the outage begins while the message is out.
    const releaseReply = smtp.holdReplies();
    try {
      const task = await createTask(testApp, user, {
        notifications: [{ type: 'email', address: to }],
      });
      await waitFor(async () => smtp.messagesTo(to).length === 1, {
        what: `the message to ${to} reaching the SMTP server`,
      });
      const restart = await stopDatabase(testApp);
      try {
        releaseReply();
        // The reply comes, and the first try at recording the attempt meets the outage.
        await waitFor(async () => recordings.mock.results.length > 0, {
          what: 'the worker trying to record the attempt',
        });
        let firstTry: PromiseSettledResult<void> | undefined;
        void Promise.allSettled([recordings.mock.results[0].value as Promise<void>]).then(
          ([settled]) => (firstTry = settled),
        );
        const settled = await waitFor(async () => firstTry, {
          what: 'the first try at recording the attempt to end',
        });
        expect(settled.status).toBe('rejected');
        expect(isDatabaseUnavailable((settled as PromiseRejectedResult).reason)).toBe(true);
      } finally {
        await restart();
      }
      // Well under the delivery job's 60 s expiry.
      const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1, 15_000);
      expect(delivery).toMatchObject({ state: 'delivered', attempt: 1 });
      const sends = await sendRows(testApp, task.id);
      expect(sends.map((send) => send.status)).toEqual(['success']);
      expect(smtp.messagesTo(to)).toHaveLength(1);
    } finally {
      releaseReply();
      recordings.mockRestore();
    }
  });
});
