import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Factory, type TestUser } from '../support/factory';
import { checkReply, errorReply, GeminiStandIn } from '../support/gemini-stand-in';
import { JwksServer } from '../support/jwks-server';
import {
  createTestDatabase,
  dropTestDatabase,
  startTestApp,
  type TestApp,
} from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createTask, waitForSettledDeliveries } from './notification-test-helpers';

/**
 * docs/api.md, "Notifications", "Events": a failing streak raises `task.check_failing` once, after
 * ALERT_AFTER_FAILURES failed executions (default 3), and `task.check_recovered` at the first
 * success after it; the streak lives in the database, so a restart in the middle changes nothing.
 */
describe('Failing-check alerts', () => {
  let gemini: GeminiStandIn;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    receiver = await new WebhookReceiver().start();
  });

  afterAll(async () => {
    await receiver.stop();
    await gemini.stop();
  });

  async function runOnce(testApp: TestApp, user: TestUser, taskId: string): Promise<void> {
    const response = await testApp.http
      .post(`/api/v1/tasks/${taskId}/execute`)
      .set('Authorization', user.auth)
      .expect(200);
    const executionId = (response.body as { execution_id?: string; id?: string }).execution_id;
    await waitFor(
      async () => {
        const { rows } = await testApp.db.query<{ status: string }>(
          executionId
            ? 'SELECT status FROM executions WHERE id = $1'
            : 'SELECT status FROM executions WHERE task_id = $1 ORDER BY created_at DESC LIMIT 1',
          [executionId ?? taskId],
        );
        return rows[0] && ['success', 'failed'].includes(rows[0].status);
      },
      { what: 'the execution to finish' },
    );
  }

  it('should send one alert and one recovery across a restart, to subscribed configs only', async () => {
    const env = { WEBHOOK_RETRY_SCHEDULE: '200ms' };
    // Both apps use this database and identity provider; the test owns them.
    const databaseUrl = await createTestDatabase();
    const jwks = await new JwksServer().start();
    let testApp = await startTestApp({ gemini, env, databaseUrl, jwks });
    const user = await new Factory(testApp).user();
    const path = `/alerts-${randomUUID()}`;
    const task = await createTask(testApp, user, {
      state: 'paused',
      name: 'Flaky watch',
      notifications: [
        { type: 'webhook', url: `${receiver.url}${path}/webhook` },
        { type: 'slack', url: `${receiver.url}${path}/slack`, events: ['condition_met'] },
      ],
    });
    const secret = (task.notifications[0] as { secret: string }).secret;

    try {
      gemini.respondWith(errorReply(400, 'Request contains an invalid argument.'));
      await runOnce(testApp, user, task.id);
      await runOnce(testApp, user, task.id);
      expect(receiver.requestsTo(path)).toHaveLength(0);

      // A second app on the same database: the streak so far is in the task row.
      const restarted = await startTestApp({ gemini, env, databaseUrl, jwks });
      await testApp.close();
      testApp = restarted;

      await runOnce(testApp, user, task.id);
      await waitFor(async () => receiver.requestsTo(`${path}/webhook`).length === 1, {
        what: 'the check_failing webhook',
      });
      await runOnce(testApp, user, task.id);

      gemini.respondWith(
        checkReply({ conditionMet: false, answer: 'Not yet.', reasoning: 'Nothing new.' }),
      );
      await runOnce(testApp, user, task.id);
      await waitFor(async () => receiver.requestsTo(`${path}/webhook`).length === 2, {
        what: 'the check_recovered webhook',
      });
      await runOnce(testApp, user, task.id);
      await waitForSettledDeliveries(testApp, task.id);

      const requests = receiver.requestsTo(`${path}/webhook`);
      const bodies = requests.map(
        (request) =>
          new Webhook(secret).verify(request.body, {
            'webhook-id': request.headers['webhook-id'] as string,
            'webhook-timestamp': request.headers['webhook-timestamp'] as string,
            'webhook-signature': request.headers['webhook-signature'] as string,
          }) as { type: string; data: Record<string, unknown> },
      );
      expect(bodies.map((body) => body.type)).toEqual([
        'task.check_failing',
        'task.check_recovered',
      ]);
      expect(bodies[0].data).toEqual({
        task: expect.objectContaining({ id: task.id, name: 'Flaky watch' }),
        execution: {
          id: expect.any(String),
          status: 'failed',
          claimed_met: null,
          evidence: null,
          values: null,
          changes: null,
          page_results: null,
          verdict_execution_id: null,
          error_message: expect.stringContaining('invalid argument'),
          completed_at: expect.any(String),
        },
        consecutive_failures: 3,
      });
      expect(bodies[1].data).toMatchObject({
        execution: { status: 'success', error_message: null },
        consecutive_failures: 4,
      });
      expect(receiver.requestsTo(`${path}/slack`)).toHaveLength(0);

      const { rows } = await testApp.db.query<{ event: string; status: string }>(
        'SELECT event, status FROM notification_sends WHERE task_id = $1 ORDER BY created_at',
        [task.id],
      );
      expect(rows).toEqual([
        { event: 'check_failing', status: 'success' },
        { event: 'check_recovered', status: 'success' },
      ]);
      const history = await testApp.http
        .get(`/api/v1/tasks/${task.id}/notifications`)
        .set('Authorization', user.auth)
        .expect(200);
      expect(history.body).toEqual([]);
    } finally {
      await testApp.close();
      await jwks.stop();
      await dropTestDatabase(databaseUrl);
    }
  });
});
