import { randomUUID } from 'node:crypto';
import { deliveryJobId } from '../../src/notifications/delivery/delivery-job';
import { DeliveryRecoverySweeper } from '../../src/notifications/delivery/delivery-recovery.sweeper';
import { Factory, type TestUser } from '../support/factory';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import {
  metExecution,
  queueDeliveries,
  sendRows,
  waitForFinalDeliveries,
  waitForSends,
} from './notification-test-helpers';

/**
 * Deliveries queued while no worker runs, picked up by another instance; deliveries whose queue
 * job was lost, brought back by the sweeper. Jobs are queued the way the check runner queues
 * them, for executions arranged in the database.
 */
describe('Delivery recovery', () => {
  let apiOnly: TestApp;
  let worker: TestApp | null = null;
  let receiver: WebhookReceiver;
  let smtp: SmtpTestServer;
  let user: TestUser;
  const env = (): Record<string, string> => ({
    SMTP_URL: smtp.url,
    // Retries wait an hour: a lost retry job is then visibly lost until the sweeper acts.
    WEBHOOK_RETRY_SCHEDULE: '1h,1h',
  });

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    smtp = await new SmtpTestServer().start();
    apiOnly = await startTestApp({ env: { ...env(), WORKER_ENABLED: 'false' } });
    user = await new Factory(apiOnly).user();
  });

  afterAll(async () => {
    await worker?.close();
    await apiOnly.close();
    await smtp.stop();
    await receiver.stop();
  });

  it('should deliver nothing on an API-only instance and everything once a worker starts', async () => {
    const path = `/later-${randomUUID()}`;
    const address = `later-${randomUUID()}@example.com`;
    const { taskId, executionId } = await metExecution(apiOnly, user, [
      { type: 'webhook', url: `${receiver.url}${path}` },
      { type: 'email', address },
    ]);
    await queueDeliveries(apiOnly, executionId, taskId, ['webhook', 'email']);
    // Both jobs are due, and no one takes them: an API-only instance runs no worker.
    const queued = await apiOnly.db.query<{ state: string }>(
      `SELECT state FROM pgboss.job WHERE name = 'notification-delivery'
         AND data ->> 'taskId' = $1 AND start_after <= now()`,
      [taskId],
    );
    expect(queued.rows).toEqual([{ state: 'created' }, { state: 'created' }]);
    expect(receiver.requestsTo(path)).toHaveLength(0);
    expect(smtp.messagesTo(address)).toHaveLength(0);

    worker = await startTestApp({
      databaseUrl: apiOnly.databaseUrl,
      jwks: apiOnly.jwks,
      env: env(),
    });
    const deliveries = await waitForFinalDeliveries(apiOnly, taskId, 2);
    expect(deliveries.map((delivery) => delivery.state)).toEqual(['delivered', 'delivered']);
    expect(receiver.requestsTo(path)).toHaveLength(1);
    expect(smtp.messagesTo(address)).toHaveLength(1);
  });

  it('should release at once the jobs a stopped worker had taken', async () => {
    const path = `/stopped-${randomUUID()}`;
    const { taskId, executionId } = await metExecution(apiOnly, user, [
      { type: 'webhook', url: `${receiver.url}${path}` },
    ]);
    const sweeper = worker!.app.get(DeliveryRecoverySweeper);
    // Another worker, alive and older than this one...
    const other = randomUUID();
    await apiOnly.db.query(
      `INSERT INTO worker_instances (id, hostname, pid, started_at, heartbeat_at)
       VALUES ($1, 'elsewhere', 1, now() - interval '1 hour', now())`,
      [other],
    );
    await sweeper.releaseJobsOfStoppedWorkers();
    // ...took the delivery job (an hour's expiry: only the sweeper can bring it back in time)...
    await apiOnly.db.query(
      `INSERT INTO pgboss.job (id, name, data, state, started_on, expire_in)
       VALUES ($1, 'notification-delivery', $2::jsonb, 'active', now() - interval '30 minutes',
         interval '1 hour')`,
      [
        deliveryJobId(executionId, 'webhook'),
        JSON.stringify({ executionId, taskId, channel: 'webhook' }),
      ],
    );
    // A sweep while that worker is alive leaves its job to it.
    await sweeper.releaseJobsOfStoppedWorkers();
    const taken = await apiOnly.db.query<{ state: string }>(
      'SELECT state FROM pgboss.job WHERE id = $1',
      [deliveryJobId(executionId, 'webhook')],
    );
    expect(taken.rows).toEqual([{ state: 'active' }]);
    expect(receiver.requestsTo(path)).toHaveLength(0);
    // ...and stopped heartbeating.
    await apiOnly.db.query(
      `UPDATE worker_instances SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`,
      [other],
    );
    expect(await sweeper.releaseJobsOfStoppedWorkers()).toBeLessThanOrEqual(1);
    const [delivery] = await waitForFinalDeliveries(apiOnly, taskId, 1, 15_000);
    expect(delivery).toMatchObject({ state: 'delivered', attempt: 1 });
    expect(receiver.requestsTo(path)).toHaveLength(1);
  });

  it('should queue again a delivery whose retry job was lost', async () => {
    const path = `/lost-${randomUUID()}`;
    receiver.enqueue((request) =>
      request.path.startsWith(path) ? { status: 500 } : { status: 200 },
    );
    const { taskId, executionId } = await metExecution(apiOnly, user, [
      { type: 'webhook', url: `${receiver.url}${path}` },
    ]);
    await queueDeliveries(apiOnly, executionId, taskId, ['webhook']);
    const [first] = await waitForSends(apiOnly, taskId, 1);
    expect(first.error_message).toBe('HTTP 500');
    // The queue loses the next attempt's job (deleted by hand, or failed for good).
    const { rowCount } = await apiOnly.db.query(
      `DELETE FROM pgboss.job WHERE name = 'notification-delivery'
         AND data ->> 'executionId' = $1 AND state = 'created'`,
      [executionId],
    );
    expect(rowCount).toBe(1);
    const sweeper = worker!.app.get(DeliveryRecoverySweeper);
    // Too recent to be taken for lost: the queue may still be about to act.
    expect(await sweeper.requeueOrphanedDeliveries()).toBe(0);
    await apiOnly.db.query(
      `UPDATE notification_deliveries SET updated_at = now() - interval '1 hour'
       WHERE execution_id = $1`,
      [executionId],
    );
    expect(await sweeper.requeueOrphanedDeliveries()).toBe(1);
    const sends = await waitForSends(apiOnly, taskId, 2);
    expect(sends.map((send) => [send.attempt, send.status])).toEqual([
      [1, 'failed'],
      [2, 'success'],
    ]);
    const [delivery] = await waitForFinalDeliveries(apiOnly, taskId, 1);
    expect(delivery).toMatchObject({ state: 'delivered', attempt: 2 });
    const requests = receiver.requestsTo(path);
    expect(requests).toHaveLength(2);
    expect(requests[1].headers['webhook-id']).toBe(requests[0].headers['webhook-id']);
  });

  it('should send again, with the same Message-ID, an email attempt orphaned mid-send', async () => {
    const address = `orphan-${randomUUID()}@example.com`;
    const { taskId, executionId } = await metExecution(apiOnly, user, [{ type: 'email', address }]);
    const deliveryId = deliveryJobId(executionId, 'email');
    // A worker claimed the attempt and died mid-send; its job is gone too.
    await apiOnly.db.query(
      `INSERT INTO notification_deliveries (id, execution_id, task_id, channel, attempt, state,
         job_id, worker_id, updated_at)
       VALUES ($1, $2, $3, 'email', 1, 'sending', $1, $4, now() - interval '1 hour')`,
      [deliveryId, executionId, taskId, randomUUID()],
    );
    expect(await worker!.app.get(DeliveryRecoverySweeper).requeueOrphanedDeliveries()).toBe(1);
    const [delivery] = await waitForFinalDeliveries(apiOnly, taskId, 1);
    expect(delivery).toMatchObject({ state: 'delivered', attempt: 1 });
    const sends = await sendRows(apiOnly, taskId);
    expect(sends).toEqual([
      expect.objectContaining({ status: 'success', attempt: 1, recipient: address }),
    ]);
    const messages = smtp.messagesTo(address);
    expect(messages).toHaveLength(1);
    expect(messages[0].messageId).toBe(`<${deliveryId}@localhost>`);
  });
});
