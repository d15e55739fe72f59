import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AuthenticatedUser } from '../../src/auth/authenticated-user';
import {
  deliveryJobId,
  type DeliveryAttemptJobData,
} from '../../src/notifications/delivery/delivery-job';
import { NotificationDeliveryService } from '../../src/notifications/delivery/notification-delivery.service';
import { DELIVERY_QUEUE, JobQueueService } from '../../src/scheduler/job-queue.service';
import { TaskChanges } from '../../src/tasks/task-changes.service';
import { UsersService } from '../../src/users/users.service';
import { startServiceContext, type ServiceContext } from '../support/service-context';
import { WebhookReceiver } from '../support/webhook-receiver';

const FIRST_RETRY_MS = 5 * 60_000;

describe('NotificationDeliveryService (service tier: real database, set clock, local receiver)', () => {
  let context: ServiceContext;
  let receiver: WebhookReceiver;
  let deliveries: NotificationDeliveryService;
  let queue: JobQueueService;
  let caller: AuthenticatedUser;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    context = await startServiceContext({
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '5m,30m',
    });
    deliveries = context.get(NotificationDeliveryService);
    queue = context.get(JobQueueService);
    const user = await context.get(UsersService).syncFromIdentity({
      subject: `user_${randomUUID()}`,
      email: 'deliveries@example.com',
      emailVerified: true,
      adminClaim: false,
    });
    caller = { user, id: user.id, isAdmin: false, credential: 'jwt', apiKeyId: null };
  });

  afterAll(async () => {
    await context.close();
    await receiver.stop();
  });

  /** A task with a webhook to `path`, one met execution, and its delivery run once. */
  async function deliverOnce(path: string): Promise<string> {
    const task = await context.get(TaskChanges).create(caller, {
      search_query: `Has release ${randomUUID()} shipped?`,
      state: 'paused',
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
    });
    const { rows } = await context.db.query<{ id: string }>(
      `INSERT INTO executions (task_id, status, trigger, completed_at, condition_met, answer, reasoning, result)
       VALUES ($1, 'success', 'manual', now(), true, 'Shipped.', 'The notes say so.', '{}') RETURNING id`,
      [task.id],
    );
    const executionId = rows[0].id;
    const deliveryId = deliveryJobId(executionId, 'webhook');
    await context
      .get(DataSource)
      .transaction((manager) =>
        queue.enqueueDeliveries(manager, [
          { id: deliveryId, data: { executionId, taskId: task.id, channel: 'webhook' } },
        ]),
      );
    const jobs = await queue.fetch<DeliveryAttemptJobData>(DELIVERY_QUEUE, 10);
    await deliveries.deliverBatch(jobs.filter((job) => job.id === deliveryId));
    return deliveryId;
  }

  async function deliveryRow(id: string) {
    const { rows } = await context.db.query<{
      state: string;
      attempt: number;
      start_after: Date | null;
      sends: string[];
    }>(
      `SELECT d.state, d.attempt, j.start_after,
         (SELECT array_agg(s.status ORDER BY s.created_at) FROM notification_sends s
          WHERE s.execution_id = d.execution_id) AS sends
       FROM notification_deliveries d
       LEFT JOIN pgboss.job j ON j.id = d.job_id AND j.state = 'created'
       WHERE d.id = $1`,
      [id],
    );
    return rows[0];
  }

  it('should record one successful send when the receiver answers 2xx', async () => {
    receiver.respondWith({ status: 204 });
    const id = await deliverOnce('/ok');
    expect(await deliveryRow(id)).toMatchObject({ state: 'delivered', sends: ['success'] });
    expect(receiver.requestsTo('/ok')).toHaveLength(1);
  });

  it('should queue the next attempt on the retry schedule from the clock when the receiver answers 500', async () => {
    const now = new Date(Date.now() + 24 * 60 * 60_000); // a day ahead: only the clock can give this
    context.clock.set(now);
    receiver.respondWith({ status: 500 });
    const row = await deliveryRow(await deliverOnce('/down'));
    expect(row).toMatchObject({ state: 'retry_scheduled', attempt: 1, sends: ['failed'] });
    const delay = (row.start_after as Date).getTime() - now.getTime();
    expect(delay).toBeGreaterThanOrEqual(FIRST_RETRY_MS * 0.9 - 1000);
    expect(delay).toBeLessThanOrEqual(FIRST_RETRY_MS * 1.1 + 1000);
  });

  it('should stop without another attempt when the receiver answers 410', async () => {
    receiver.respondWith({ status: 410 });
    const row = await deliveryRow(await deliverOnce('/gone'));
    expect(row).toMatchObject({ state: 'failed', sends: ['failed'], start_after: null });
  });
});
