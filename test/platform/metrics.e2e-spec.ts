import { randomUUID } from 'node:crypto';
import { DeclaredQueues } from '../../src/scheduler/declared-queues.service';
import { expectDetail } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { errorReply, GeminiStandIn, suggestReply } from '../support/gemini-stand-in';
import { parseExposition, sampleValue, type MetricFamily } from '../support/prometheus-text';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import {
  answerByQuery,
  createTask,
  waitForFinalDeliveries,
} from '../notifications/notification-test-helpers';

const TOKEN = 'metrics-token-for-tests';

describe('GET /metrics', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let receiver: WebhookReceiver;
  let user: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    receiver = await new WebhookReceiver().start();
    testApp = await startTestApp({ gemini, env: { METRICS_TOKEN: TOKEN } });
    user = await new Factory(testApp).user();
    answerByQuery(gemini);
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
    await gemini.stop();
  });

  async function scrape(app: TestApp = testApp): Promise<Map<string, MetricFamily>> {
    const response = await app.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    // Express puts the charset first; Prometheus reads the parameters in any order.
    expect(response.headers['content-type']).toMatch(/^text\/plain; .*version=0\.0\.4/);
    return parseExposition(response.text);
  }

  it('should answer 401 without the metrics token or with another credential', async () => {
    expectDetail(await testApp.http.get('/metrics'), 401, 'Authorization header missing');
    expectDetail(
      await testApp.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}x`),
      401,
      'Invalid metrics token',
    );
    // An API key is no metrics token.
    expectDetail(
      await testApp.http.get('/metrics').set('Authorization', user.auth),
      401,
      'Invalid metrics token',
    );
  });

  it('should expose check, delivery, cost, queue and process metrics after a check and a delivery', async () => {
    const task = await createTask(testApp, user, {
      name: 'Metrics watch',
      notifications: [{ type: 'webhook', url: `${receiver.url}/metrics-hook` }],
    });
    const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1);
    expect(delivery.state).toBe('delivered');

    const families = await scrape();
    expect(families.get('monitor_checks_total')?.type).toBe('counter');
    expect(sampleValue(families, 'monitor_checks_total', { status: 'success' })).toBe(1);
    expect(sampleValue(families, 'monitor_checks_total', { status: 'failed' })).toBe(0);
    expect(sampleValue(families, 'monitor_checks_total', { status: 'cancelled' })).toBe(0);

    expect(families.get('monitor_check_duration_seconds')?.type).toBe('histogram');
    expect(sampleValue(families, 'monitor_check_duration_seconds_count')).toBe(1);
    expect(sampleValue(families, 'monitor_check_duration_seconds_sum')).toBeGreaterThan(0);

    expect(
      sampleValue(families, 'monitor_deliveries_total', { channel: 'webhook', status: 'success' }),
    ).toBe(1);
    expect(families.get('monitor_model_calls_total')?.type).toBe('counter');
    expect(
      sampleValue(families, 'monitor_model_calls_total', { provider: 'gemini', kind: 'check' }),
    ).toBe(1);

    const { rows } = await testApp.db.query<{ cost: number }>(
      `SELECT (usage->>'cost_usd')::float AS cost FROM executions WHERE task_id = $1`,
      [task.id],
    );
    expect(rows[0].cost).toBeGreaterThan(0);
    expect(sampleValue(families, 'monitor_llm_cost_usd_total', { provider: 'gemini' })).toBeCloseTo(
      rows[0].cost,
      9,
    );

    // The condition was met, so the task completed: its check job and the delivery's are done.
    expect(families.get('monitor_queue_jobs')?.type).toBe('gauge');
    expect(
      sampleValue(families, 'monitor_queue_jobs', { queue: 'task-check', state: 'completed' }),
    ).toBe(1);
    expect(
      sampleValue(families, 'monitor_queue_jobs', { queue: 'task-check', state: 'created' }),
    ).toBe(0);
    expect(
      sampleValue(families, 'monitor_queue_jobs', {
        queue: 'notification-delivery',
        state: 'completed',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(families, 'monitor_queue_jobs', {
        queue: 'notification-delivery',
        state: 'failed',
      }),
    ).toBe(0);

    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes']) {
      expect(families.has(name)).toBe(true);
    }
    expect(families.get('nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
  });

  it('should report every declared queue in every job state when its jobs are counted', async () => {
    const declared = testApp.app
      .get(DeclaredQueues)
      .declarations()
      .map((queue) => queue.name);
    expect(declared).toEqual([
      'notification-delivery',
      'notification-digest',
      'owner-notice',
      'task-check',
    ]);
    const families = await scrape();
    for (const queue of declared) {
      for (const state of ['created', 'retry', 'active', 'completed', 'cancelled', 'failed']) {
        expect({
          queue,
          state,
          jobs: sampleValue(families, 'monitor_queue_jobs', { queue, state }),
        }).toEqual({ queue, state, jobs: expect.any(Number) });
      }
    }
  });

  it('should count previews and suggestions as model calls of their own kind, failed ones too', async () => {
    const calls = async (kind: string) =>
      sampleValue(await scrape(), 'monitor_model_calls_total', { provider: 'gemini', kind }) ?? 0;
    const [previews, suggestions] = [await calls('preview'), await calls('suggest')];
    await testApp.http
      .post('/api/v1/tasks/preview')
      .set('Authorization', user.auth)
      .send({ search_query: 'Metrics preview of a release' })
      .expect(200);
    gemini.enqueue(suggestReply(), errorReply(400, 'Bad request'));
    for (const status of [200, 502]) {
      await testApp.http
        .post('/api/v1/tasks/suggest')
        .set('Authorization', user.auth)
        .send({ prompt: 'Tell me when the next release is out' })
        .expect(status);
    }
    expect(await calls('preview')).toBe(previews + 1);
    expect(await calls('suggest')).toBe(suggestions + 2);
  });

  it('should label requests by route pattern, and unknown paths as unmatched', async () => {
    const task = await new Factory(testApp).task(user);
    await testApp.http.get(`/api/v1/tasks/${task.id}`).set('Authorization', user.auth).expect(200);
    await testApp.http.get(`/api/v1/tasks/${randomUUID()}`).set('Authorization', user.auth);
    await testApp.http.get(`/no-such-path/${randomUUID()}`).expect(404);

    const families = await scrape();
    expect(families.get('http_request_duration_seconds')?.type).toBe('histogram');
    const count = (labels: Record<string, string>) =>
      sampleValue(families, 'http_request_duration_seconds_count', labels);
    expect(count({ method: 'GET', route: '/api/v1/tasks/:id', status_code: '200' })).toBe(1);
    expect(count({ method: 'GET', route: '/api/v1/tasks/:id', status_code: '404' })).toBe(1);
    expect(count({ method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(count({ method: 'POST', route: '/api/v1/tasks', status_code: '200' })).toBeGreaterThan(
      0,
    );
    // No series carries a raw path.
    const routes = families
      .get('http_request_duration_seconds')!
      .samples.map((sample) => sample.labels.route);
    expect(routes.filter((route) => /[0-9a-f]{8}-[0-9a-f]{4}/.test(route))).toEqual([]);
  });

  it('should answer 401 naming the Bearer form when the token comes in another scheme', async () => {
    expectDetail(
      await testApp.http.get('/metrics').set('Authorization', `Basic ${TOKEN}`),
      401,
      'Authorization header must be "Bearer <API key or JWT>"',
    );
    await testApp.http.get('/metrics').set('Authorization', `bearer ${TOKEN}`).expect(200);
  });

  describe('without METRICS_TOKEN', () => {
    let second: TestApp | undefined;

    afterEach(async () => {
      await second?.close();
      second = undefined;
    });

    it('should answer 404 like any unknown path when authentication is on', async () => {
      second = await startTestApp({
        databaseUrl: testApp.databaseUrl,
        env: { WORKER_ENABLED: 'false' },
      });
      expectDetail(await second.http.get('/metrics'), 404, 'Not Found');
      expectDetail(
        await second.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`),
        404,
        'Not Found',
      );
    });

    it('should answer without credentials when AUTH_DISABLED=true, from a registry of its own', async () => {
      second = await startTestApp({
        databaseUrl: testApp.databaseUrl,
        env: { WORKER_ENABLED: 'false', AUTH_DISABLED: 'true' },
      });
      const response = await second.http.get('/metrics').expect(200);
      const families = parseExposition(response.text);
      // This instance ran no check: its counters are its own, not the first instance's.
      expect(sampleValue(families, 'monitor_checks_total', { status: 'success' })).toBe(0);
      expect(families.has('process_cpu_user_seconds_total')).toBe(true);
    });
  });
});
