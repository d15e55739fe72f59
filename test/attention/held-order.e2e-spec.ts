import { randomUUID } from 'node:crypto';
import { Factory, type TestUser } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createTask, queueDeliveries, sendRows } from '../notifications/notification-test-helpers';

const MINUTE_MS = 60_000;

/**
 * docs/attention.md, "Held deliveries keep their order": deliveries held by quiet hours reach
 * their destination, when the quiet hours end, in the order their events happened, whatever the
 * order they were held in, with two instances releasing them.
 */
describe('Held deliveries keep their order', () => {
  let testApp: TestApp;
  let second: TestApp;
  let receiver: WebhookReceiver;
  let owner: TestUser;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    testApp = await startTestApp();
    second = await startTestApp({ databaseUrl: testApp.databaseUrl, jwks: testApp.jwks });
    owner = await new Factory(testApp).user();
  });

  afterAll(async () => {
    await second?.close();
    await testApp?.close();
    await receiver.stop();
  });

  /** A finished met-condition execution of `taskId` whose event happened `minutesAgo`. */
  async function metExecution(taskId: string, minutesAgo: number): Promise<string> {
    const { rows } = await testApp.db.query<{ id: string }>(
      `INSERT INTO executions (task_id, status, trigger, completed_at, condition_met, answer,
         reasoning, grounding_sources, result)
       VALUES ($1, 'success', 'manual', now() - make_interval(mins => $2), true, 'It happened',
         'Because.', '[]'::jsonb, '{}'::jsonb)
       RETURNING id`,
      [taskId, minutesAgo],
    );
    return rows[0].id;
  }

  it('should send the deliveries released after quiet hours to a receiver in event order', async () => {
    const hhmm = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString().slice(11, 16);
    await testApp.http
      .put('/api/v1/users/me/preferences')
      .set('Authorization', owner.auth)
      .send({ quiet_hours: { start: hhmm(-60 * MINUTE_MS), end: hhmm(120 * MINUTE_MS) } })
      .expect(200);
    // Two tasks post to one receiver: one destination.
    const path = `/ordered-${randomUUID()}`;
    const tasks = await Promise.all(
      ['first', 'second'].map((name) =>
        createTask(testApp, owner, {
          state: 'paused',
          name,
          notify_behavior: 'always',
          notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
        }),
      ),
    );
    // Events 50, 40, ... 10 minutes ago, alternating between the tasks, held in another order.
    const events: Array<{ taskId: string; executionId: string }> = [];
    for (const minutesAgo of [50, 40, 30, 20, 10]) {
      const taskId = tasks[events.length % 2].id;
      events.push({ taskId, executionId: await metExecution(taskId, minutesAgo) });
    }
    for (const index of [4, 1, 3, 0, 2]) {
      const { executionId, taskId } = events[index];
      await queueDeliveries(testApp, executionId, taskId, ['webhook']);
    }
    await waitFor(
      async () => {
        const held = [
          ...(await sendRows(testApp, tasks[0].id)),
          ...(await sendRows(testApp, tasks[1].id)),
        ].filter((row) => row.status === 'held');
        return held.length === events.length || undefined;
      },
      { what: 'five held deliveries' },
    );
    expect(receiver.requestsTo(path)).toEqual([]);

    // A slow receiver: deliveries sent at once would be under way together.
    receiver.respondWith({ status: 200, body: 'ok', delayMs: 300 });
    await testApp.http
      .put('/api/v1/users/me/preferences')
      .set('Authorization', owner.auth)
      .send({ quiet_hours: null })
      .expect(200);
    // The quiet hours end now: their release jobs fall due.
    await testApp.db.query(
      `UPDATE pgboss.job SET start_after = now()
       WHERE name = 'notification-delivery' AND state = 'created'
         AND data ->> 'taskId' = ANY($1::text[])`,
      [tasks.map((task) => task.id)],
    );
    const received = await waitFor(
      async () => {
        const requests = receiver.requestsTo(path);
        return requests.length >= events.length ? requests : undefined;
      },
      { what: 'the five released deliveries', timeoutMs: 60_000 },
    );
    const seen = received.map((request) => {
      const { data } = JSON.parse(request.body) as {
        data: { task: { id: string }; execution: { id: string } };
      };
      return { taskId: data.task.id, executionId: data.execution.id };
    });
    expect(seen).toEqual(events);
    const statuses = await waitFor(
      async () => {
        const rows = [
          ...(await sendRows(testApp, tasks[0].id)),
          ...(await sendRows(testApp, tasks[1].id)),
        ];
        return rows.every((row) => row.status === 'success') ? rows : undefined;
      },
      { what: 'the held records to be updated' },
    );
    expect(statuses).toHaveLength(events.length);
  }, 120_000);
});
