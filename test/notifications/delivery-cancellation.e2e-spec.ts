import { randomUUID } from 'node:crypto';
import { deliveryJobId } from '../../src/notifications/delivery/delivery-job';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import {
  answerByQuery,
  createTask,
  metExecution,
  queueDeliveries,
  sendRows,
  waitForFinalDeliveries,
  waitForSends,
  type DeliveryRow,
} from './notification-test-helpers';

const RETRY_DELAY_MS = 1000;

/** Deactivating a user (`PATCH /admin/users/{id}/deactivate`) ends their deliveries. */
describe('Delivery cancellation on deactivation', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let receiver: WebhookReceiver;
  let smtp: SmtpTestServer;
  let factory: Factory;
  let admin: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    receiver = await new WebhookReceiver().start();
    smtp = await new SmtpTestServer().start();
    testApp = await startTestApp({
      gemini,
      env: {
        SMTP_URL: smtp.url,
        WEBHOOK_RETRY_SCHEDULE: `${RETRY_DELAY_MS}ms,${RETRY_DELAY_MS}ms,${RETRY_DELAY_MS}ms`,
      },
    });
    factory = new Factory(testApp);
    admin = await factory.user({ admin: true });
    answerByQuery(gemini);
  });

  afterAll(async () => {
    await testApp.close();
    await smtp.stop();
    await receiver.stop();
    await gemini.stop();
  });

  async function deactivate(user: TestUser): Promise<void> {
    await testApp.http
      .patch(`/admin/users/${user.id}/deactivate`)
      .set('Authorization', admin.auth)
      .expect(200);
  }

  async function deliveries(taskId: string): Promise<DeliveryRow[]> {
    const { rows } = await testApp.db.query<DeliveryRow>(
      'SELECT * FROM notification_deliveries WHERE task_id = $1 ORDER BY channel',
      [taskId],
    );
    return rows;
  }

  async function openJobs(taskId: string): Promise<number> {
    const { rows } = await testApp.db.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM pgboss.job WHERE name = 'notification-delivery'
         AND data ->> 'taskId' = $1 AND state IN ('created', 'retry', 'active')`,
      [taskId],
    );
    return rows[0].open;
  }

  it('should cancel retrying deliveries: no further attempt, and they end cancelled', async () => {
    const user = await factory.user();
    const path = `/failing-${randomUUID()}`;
    const address = `retrying-${randomUUID()}@example.com`;
    receiver.respondWith((request) =>
      request.path.startsWith(path) ? { status: 500 } : { status: 200 },
    );
    smtp.rejectNext({ code: 451, message: 'Try again later' });
    const task = await createTask(testApp, user, {
      notifications: [
        { type: 'webhook', url: `${receiver.url}${path}` },
        { type: 'email', address },
      ],
    });
    const sends = await waitForSends(testApp, task.id, 2);
    expect(sends.map((send) => send.status)).toEqual(['failed', 'failed']);
    expect((await deliveries(task.id)).map((row) => row.state)).toEqual([
      'retry_scheduled',
      'retry_scheduled',
    ]);

    await deactivate(user);

    // No job is left to run a next attempt.
    expect(await openJobs(task.id)).toBe(0);
    expect(receiver.requestsTo(path)).toHaveLength(1);
    expect(smtp.messagesTo(address)).toHaveLength(0);
    expect(await sendRows(testApp, task.id)).toHaveLength(2);
    expect(await deliveries(task.id)).toEqual([
      expect.objectContaining({
        channel: 'email',
        state: 'cancelled',
        attempt: 1,
        last_error: 'Cancelled: the account was deactivated',
      }),
      expect.objectContaining({
        channel: 'webhook',
        state: 'cancelled',
        attempt: 1,
        last_error: 'Cancelled: the account was deactivated',
      }),
    ]);
    expect(await openJobs(task.id)).toBe(0);
  });

  it('should cancel deliveries still queued for their first attempt', async () => {
    const user = await factory.user();
    const path = `/queued-${randomUUID()}`;
    const address = `queued-${randomUUID()}@example.com`;
    const { taskId, executionId } = await metExecution(testApp, user, [
      { type: 'webhook', url: `${receiver.url}${path}` },
      { type: 'email', address },
    ]);
    // Due in two seconds: still queued when the account is deactivated.
    await queueDeliveries(
      testApp,
      executionId,
      taskId,
      ['email', 'webhook'],
      new Date(Date.now() + 2000),
    );
    expect(await openJobs(taskId)).toBe(2);

    await deactivate(user);

    // No job is left to run the first attempts.
    expect(await openJobs(taskId)).toBe(0);
    expect(receiver.requestsTo(path)).toHaveLength(0);
    expect(smtp.messagesTo(address)).toHaveLength(0);
    expect(await sendRows(testApp, taskId)).toHaveLength(0);
    expect(await deliveries(taskId)).toEqual([
      expect.objectContaining({
        id: deliveryJobId(executionId, 'email'),
        state: 'cancelled',
        attempt: 1,
      }),
      expect.objectContaining({
        id: deliveryJobId(executionId, 'webhook'),
        state: 'cancelled',
        attempt: 1,
      }),
    ]);
  });

  it('should cancel, without sending, queued deliveries whose user is no longer active', async () => {
    const user = await factory.user();
    const path = `/inactive-${randomUUID()}`;
    const address = `inactive-${randomUUID()}@example.com`;
    const { taskId, executionId } = await metExecution(testApp, user, [
      { type: 'webhook', url: `${receiver.url}${path}` },
      { type: 'email', address },
    ]);
    await queueDeliveries(
      testApp,
      executionId,
      taskId,
      ['email', 'webhook'],
      new Date(Date.now() + 1000),
    );
    // Inactive without the deactivation route, which would have cancelled the jobs itself (as
    // the local user of AUTH_DISABLED becomes when authentication is turned on).
    await testApp.db.query(`UPDATE users SET state = 'deactivated' WHERE id = $1`, [user.id]);

    const final = await waitForFinalDeliveries(testApp, taskId, 2);
    expect(final).toEqual([
      expect.objectContaining({
        channel: 'email',
        state: 'cancelled',
        last_error: 'Cancelled: the account is not active',
      }),
      expect.objectContaining({
        channel: 'webhook',
        state: 'cancelled',
        last_error: 'Cancelled: the account is not active',
      }),
    ]);
    expect(receiver.requestsTo(path)).toHaveLength(0);
    expect(smtp.messagesTo(address)).toHaveLength(0);
    expect(await sendRows(testApp, taskId)).toHaveLength(0);
    expect(await openJobs(taskId)).toBe(0);
  });
});
