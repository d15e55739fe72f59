import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { expectDetail } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { SilentDnsServer } from '../support/silent-dns-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import {
  answerByQuery,
  createTask,
  waitForSends,
  type CreatedTask,
  type DeliveryRow,
} from './notification-test-helpers';

/** Webhook hosts resolved through a name server (DNS_SERVERS) that never answers. */
describe('Webhook DNS', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let receiver: WebhookReceiver;
  let dns: SilentDnsServer;
  let user: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    receiver = await new WebhookReceiver().start();
    dns = await new SilentDnsServer().start();
    testApp = await startTestApp({
      gemini,
      env: { DNS_SERVERS: dns.address, WEBHOOK_RETRY_SCHEDULE: '1h' },
    });
    user = await new Factory(testApp).user();
    answerByQuery(gemini);
  });

  afterAll(async () => {
    await testApp.close();
    await dns.stop();
    await receiver.stop();
    await gemini.stop();
  });

  /** A paused task whose stored webhook host is only known to the silent name server. */
  async function taskOnSilentHost(path: string): Promise<CreatedTask> {
    const task = await createTask(testApp, user, {
      state: 'paused',
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
    });
    // The name server went silent after the config was validated.
    await testApp.db.query(
      `UPDATE tasks SET notifications = jsonb_build_array(notifications -> 0 || $2::jsonb)
       WHERE id = $1`,
      [task.id, JSON.stringify({ url: `http://hooks.example.test:${receiver.port}${path}` })],
    );
    return task;
  }

  it('should fail the attempt with a DNS timeout well within 15 s and retry it later, without stalling other lookups', async () => {
    const path = `/silent-${randomUUID()}`;
    // More stuck lookups than libuv's thread pool has threads.
    const tasks = await Promise.all(Array.from({ length: 6 }, () => taskOnSilentHost(path)));
    const queriesBefore = dns.queries;
    const startedAt = Date.now();
    for (const task of tasks) {
      await testApp.http
        .post(`/api/v1/tasks/${task.id}/execute`)
        .set('Authorization', user.auth)
        .expect(200);
    }
    // While the six lookups wait on the silent server, lookups on the thread pool still answer.
    await waitFor(async () => dns.queries >= queriesBefore + tasks.length, {
      what: 'the six lookups to reach the silent server',
    });
    const lookupStartedAt = Date.now();
    await lookup('localhost');
    expect(Date.now() - lookupStartedAt).toBeLessThan(500);

    const sends = await Promise.all(tasks.map((task) => waitForSends(testApp, task.id, 1)));
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(dns.queries).toBeGreaterThan(queriesBefore);
    for (const [send] of sends) {
      expect(send).toMatchObject({ status: 'failed', attempt: 1 });
      expect(send.error_message).toBe(
        'DNS lookup of hooks.example.test failed: no answer from the DNS server within 5.0 s',
      );
    }
    // A network failure like any other: the next attempt is scheduled.
    const { rows } = await testApp.db.query<DeliveryRow>(
      'SELECT * FROM notification_deliveries WHERE task_id = ANY($1::uuid[])',
      [tasks.map((task) => task.id)],
    );
    expect(rows.map((row) => row.state)).toEqual(Array(6).fill('retry_scheduled'));
    expect(receiver.requestsTo(path)).toHaveLength(0);
  });

  it('should answer 400 within the DNS deadline when a new webhook host cannot be resolved', async () => {
    const startedAt = Date.now();
    const response = await testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .send({
        search_query: 'silent name server check query',
        notifications: [{ type: 'webhook', url: 'http://hooks.example.test/hook' }],
      });
    expectDetail(
      response,
      400,
      'Invalid notification: url host hooks.example.test could not be resolved',
    );
    expect(Date.now() - startedAt).toBeLessThan(8000);
  });

  it('should resolve localhost and its subdomains to loopback without asking the name server', async () => {
    const path = `/localhost-${randomUUID()}`;
    const queriesBefore = dns.queries;
    const task = await createTask(testApp, user, {
      notifications: [{ type: 'webhook', url: `http://hooks.localhost:${receiver.port}${path}` }],
    });
    const [send] = await waitForSends(testApp, task.id, 1);
    expect(send).toMatchObject({ status: 'success', error_message: null });
    expect(receiver.requestsTo(path)).toHaveLength(1);
    expect(dns.queries).toBe(queriesBefore);
  });
});
