import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { MetricsService } from '../../src/metrics/metrics.service';
import { expectDetail } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { parseExposition, sampleValue } from '../support/prometheus-text';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import {
  answerByQuery,
  createTask,
  MET_ANSWER,
  MET_REASONING,
  MET_SOURCES,
  requeueJob,
  rerunJob,
  sendRows,
  waitForSettledDeliveries,
  waitForFinalDeliveries,
  waitForSends,
  type CreatedTask,
} from './notification-test-helpers';

const RETRY_MS = 200;

describe('Webhook notifications', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let receiver: WebhookReceiver;
  let user: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    receiver = await new WebhookReceiver().start();
    testApp = await startTestApp({
      gemini,
      env: { WEBHOOK_RETRY_SCHEDULE: `${RETRY_MS}ms,${RETRY_MS}ms,${RETRY_MS}ms` },
    });
    user = await new Factory(testApp).user();
    answerByQuery(gemini);
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
    await gemini.stop();
  });

  /** A task whose webhook points at its own path on the receiver. */
  async function webhookTask(
    path: string,
    config: Record<string, unknown> = {},
    body: Record<string, unknown> = {},
  ): Promise<CreatedTask> {
    return createTask(testApp, user, {
      name: `Release watch ${path}`,
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}`, ...config }],
      ...body,
    });
  }

  function secretOf(task: CreatedTask): string {
    const webhook = task.notifications.find((config) => config.type === 'webhook');
    return webhook?.secret as string;
  }

  function answerPath(path: string, ...statuses: number[]): void {
    const queue = [...statuses];
    const fallback = statuses[statuses.length - 1];
    const previous = receiver;
    previous.respondWith((request: ReceivedWebhook) => {
      if (!request.path.startsWith(path)) return { status: 200 };
      return { status: queue.length > 0 ? queue.shift()! : fallback };
    });
  }

  afterEach(() => {
    receiver.respondWith({ status: 200 });
  });

  it('should deliver a signed webhook with the documented body when the condition is met', async () => {
    const path = `/hook-${randomUUID()}`;
    const task = await webhookTask(path, { headers: { Authorization: 'Bearer receiver-token' } });
    const [send] = await waitForSends(testApp, task.id, 1);
    const [request] = receiver.requestsTo(path);
    expect(request).toBeDefined();

    // Verified with the standardwebhooks package, independent of the service's signer.
    const verified = new Webhook(secretOf(task)).verify(request.body, {
      'webhook-id': request.headers['webhook-id'] as string,
      'webhook-timestamp': request.headers['webhook-timestamp'] as string,
      'webhook-signature': request.headers['webhook-signature'] as string,
    });
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe('Bearer receiver-token');
    expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    const timestamp = Number(request.headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(30);

    const { rows } = await testApp.db.query<{ id: string; completed_at: Date }>(
      'SELECT id, completed_at FROM executions WHERE task_id = $1',
      [task.id],
    );
    expect(verified).toEqual({
      type: 'task.condition_met',
      timestamp: rows[0].completed_at.toISOString(),
      data: {
        task: {
          id: task.id,
          name: task.name,
          search_query: task.search_query,
          condition_description: task.condition_description,
        },
        execution: {
          id: rows[0].id,
          condition_met: true,
          // Every execution object says what the verdict rests on.
          claimed_met: true,
          evidence: { distinct_domains: 2, trusted_matches: 0, satisfied: true },
          values: null,
          changes: null,
          // A search task's execution has no page results and no carried verdict.
          page_results: null,
          verdict_execution_id: null,
          answer: MET_ANSWER,
          reasoning: MET_REASONING,
          grounding_sources: MET_SOURCES,
          completed_at: rows[0].completed_at.toISOString(),
        },
      },
    });
    expect(send).toMatchObject({
      user_id: user.id,
      task_id: task.id,
      execution_id: rows[0].id,
      // The URL's origin, its path masked.
      recipient: `${receiver.url}/****`,
      notification_type: 'webhook',
      status: 'success',
      error_message: null,
      attempt: 1,
    });
  });

  it('should use the configured method and headers but never let them replace the signing headers', async () => {
    const path = `/put-${randomUUID()}`;
    const task = await webhookTask(path, { method: 'PUT', headers: { 'X-Team': 'ops' } });
    await waitForSends(testApp, task.id, 1);
    const [request] = receiver.requestsTo(path);
    expect(request.method).toBe('PUT');
    expect(request.headers['x-team']).toBe('ops');
  });

  it('should refuse reserved headers in the config with 400', async () => {
    for (const header of ['webhook-id', 'Webhook-Signature', 'Content-Type', 'webhook-timestamp']) {
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .send({
          search_query: 'reserved header check query',
          notifications: [
            { type: 'webhook', url: `${receiver.url}/never`, headers: { [header]: 'x' } },
          ],
        });
      expectDetail(response, 400, `Invalid notification: header '${header}' is reserved`);
    }
  });

  it('should refuse header names and values that HTTP refuses with 400, on create and on update', async () => {
    const url = `${receiver.url}/never`;
    const valueRefused =
      'has a value HTTP does not allow (control characters, line breaks or characters beyond Latin-1)';
    const cases: Array<[Record<string, string>, string]> = [
      [{ 'X-Price': '5 €' }, `header 'X-Price' ${valueRefused}`],
      [{ 'X-Mood': '\u{1F600}' }, `header 'X-Mood' ${valueRefused}`],
      [{ 'X-Control': 'a\u0001b' }, `header 'X-Control' ${valueRefused}`],
      [{ 'X-Delete': 'a\u007fb' }, `header 'X-Delete' ${valueRefused}`],
      [{ 'X-Line': 'a\nb' }, `header 'X-Line' ${valueRefused}`],
      [{ 'X Space': 'x' }, "header name 'X Space' is not valid"],
      [{ 'X-Ümlaut': 'x' }, "header name 'X-Ümlaut' is not valid"],
      [{ '': 'x' }, "header name '' is not valid"],
    ];
    const task = await webhookTask(`/valid-${randomUUID()}`, {}, { state: 'paused' });
    for (const [headers, reason] of cases) {
      const notifications = [{ type: 'webhook', url, headers }];
      const detail = `Invalid notification: ${reason}`;
      const created = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .send({ search_query: 'header validation check query', notifications });
      expectDetail(created, 400, detail);
      const updated = await testApp.http
        .put(`/api/v1/tasks/${task.id}`)
        .set('Authorization', user.auth)
        .send({ notifications });
      expectDetail(updated, 400, detail);
    }
    // Latin-1 text and tabs are valid header values.
    await testApp.http
      .put(`/api/v1/tasks/${task.id}`)
      .set('Authorization', user.auth)
      .send({ notifications: [{ type: 'webhook', url, headers: { 'X-Team': 'café\tops' } }] })
      .expect(200);
  });

  it('should fail a stored config whose header HTTP refuses at once, without retrying', async () => {
    const path = `/stored-invalid-${randomUUID()}`;
    const task = await webhookTask(path, {}, { state: 'paused' });
    // Bypass validation: a config stored before headers were validated.
    await testApp.db.query(
      `UPDATE tasks SET notifications = jsonb_build_array(notifications -> 0 || $2::jsonb)
       WHERE id = $1`,
      [task.id, JSON.stringify({ headers: { 'X-Price': '5 €' } })],
    );
    await testApp.http
      .post(`/api/v1/tasks/${task.id}/execute`)
      .set('Authorization', user.auth)
      .expect(200);
    const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1);
    expect(delivery.state).toBe('failed');
    await waitForSettledDeliveries(testApp, task.id);
    const sends = await sendRows(testApp, task.id);
    expect(sends).toHaveLength(1);
    expect(sends[0].error_message).toMatch(
      /^Invalid webhook config: header 'X-Price' has a value HTTP does not allow/,
    );
    expect(receiver.requestsTo(path)).toHaveLength(0);
  });

  it('should keep the signing headers when a stored config carries reserved headers', async () => {
    const path = `/stored-${randomUUID()}`;
    const task = await createTask(testApp, user, {
      state: 'paused',
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
    });
    // Bypass validation: a config written straight to the database.
    await testApp.db.query(
      `UPDATE tasks SET notifications = jsonb_build_array(notifications -> 0 || $2::jsonb)
       WHERE id = $1`,
      [
        task.id,
        JSON.stringify({
          headers: {
            'Webhook-Id': 'msg_forged',
            'webhook-signature': 'v1,forged',
            'Content-Type': 'text/plain',
            'X-Kept': 'yes',
          },
        }),
      ],
    );
    await testApp.http
      .post(`/api/v1/tasks/${task.id}/execute`)
      .set('Authorization', user.auth)
      .expect(200);
    await waitForSends(testApp, task.id, 1);
    const [request] = receiver.requestsTo(path);
    expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-kept']).toBe('yes');
    expect(() =>
      new Webhook(secretOf(task)).verify(request.body, {
        'webhook-id': request.headers['webhook-id'] as string,
        'webhook-timestamp': request.headers['webhook-timestamp'] as string,
        'webhook-signature': request.headers['webhook-signature'] as string,
      }),
    ).not.toThrow();
  });

  it('should retry a failing receiver on the schedule with the same webhook-id, then give up', async () => {
    const path = `/down-${randomUUID()}`;
    answerPath(path, 500);
    const task = await webhookTask(path);
    const sends = await waitForSends(testApp, task.id, 4);
    await waitForFinalDeliveries(testApp, task.id, 1);
    await waitForSettledDeliveries(testApp, task.id);
    expect(await sendRows(testApp, task.id)).toHaveLength(4);

    expect(sends.map((send) => [send.attempt, send.status, send.error_message])).toEqual([
      [1, 'failed', 'HTTP 500'],
      [2, 'failed', 'HTTP 500'],
      [3, 'failed', 'HTTP 500'],
      [4, 'failed', 'HTTP 500'],
    ]);
    const requests = receiver.requestsTo(path);
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    // Every attempt is signed anew (its own timestamp) and verifies.
    for (const request of requests) {
      expect(() =>
        new Webhook(secretOf(task)).verify(request.body, {
          'webhook-id': request.headers['webhook-id'] as string,
          'webhook-timestamp': request.headers['webhook-timestamp'] as string,
          'webhook-signature': request.headers['webhook-signature'] as string,
        }),
      ).not.toThrow();
    }
    for (let index = 1; index < requests.length; index++) {
      // 200 ms minus 10% jitter, give or take the clock.
      expect(requests[index].receivedAt - requests[index - 1].receivedAt).toBeGreaterThanOrEqual(
        RETRY_MS * 0.9 - 20,
      );
    }
    const { rows } = await testApp.db.query<{ state: string; attempt: number }>(
      'SELECT state, attempt FROM notification_deliveries WHERE task_id = $1',
      [task.id],
    );
    expect(rows).toEqual([{ state: 'failed', attempt: 4 }]);
  });

  it('should succeed on a later attempt after failures', async () => {
    const path = `/flaky-${randomUUID()}`;
    answerPath(path, 503, 200);
    const task = await webhookTask(path);
    const sends = await waitForSends(testApp, task.id, 2);
    await waitForFinalDeliveries(testApp, task.id, 1);
    expect(sends.map((send) => [send.attempt, send.status, send.error_message])).toEqual([
      [1, 'failed', 'HTTP 503'],
      [2, 'success', null],
    ]);
    const { rows } = await testApp.db.query<{ state: string; attempt: number }>(
      'SELECT state, attempt FROM notification_deliveries WHERE task_id = $1',
      [task.id],
    );
    expect(rows).toEqual([{ state: 'delivered', attempt: 2 }]);
  });

  it('should stop retrying when the receiver answers 410 Gone', async () => {
    const path = `/gone-${randomUUID()}`;
    answerPath(path, 410);
    const task = await webhookTask(path);
    await waitForFinalDeliveries(testApp, task.id, 1);
    await waitForSettledDeliveries(testApp, task.id);
    const sends = await sendRows(testApp, task.id);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ status: 'failed', attempt: 1 });
    expect(sends[0].error_message).toMatch(/^HTTP 410/);
    expect(receiver.requestsTo(path)).toHaveLength(1);
  });

  it('should not follow redirects and count them as failed attempts', async () => {
    const path = `/moved-${randomUUID()}`;
    const target = `/redirect-target-${randomUUID()}`;
    let first = true;
    receiver.respondWith((request) => {
      if (!request.path.startsWith(path)) return { status: 200 };
      if (first) {
        first = false;
        return { status: 302, headers: { location: `${receiver.url}${target}` } };
      }
      return { status: 200 };
    });
    const task = await webhookTask(path);
    const sends = await waitForSends(testApp, task.id, 2);
    expect(sends.map((send) => [send.status, send.error_message])).toEqual([
      ['failed', 'HTTP 302 (redirects are not followed)'],
      ['success', null],
    ]);
    expect(receiver.requestsTo(target)).toHaveLength(0);
  });

  it('should retry when the connection is refused', async () => {
    const closed = await new WebhookReceiver().start();
    const url = `${closed.url}/refused`;
    await closed.stop();
    const task = await createTask(testApp, user, {
      notifications: [{ type: 'webhook', url }],
    });
    const sends = await waitForSends(testApp, task.id, 4);
    expect(sends[0].error_message).toBe('connection failed');
    expect(sends.map((send) => send.attempt)).toEqual([1, 2, 3, 4]);
  });

  it('should give up on an attempt after 15 s without an answer and retry it', async () => {
    const path = `/slow-${randomUUID()}`;
    let first = true;
    receiver.respondWith((request) => {
      if (!request.path.startsWith(path) || !first) return { status: 200 };
      first = false;
      return { status: 200, delayMs: 16_000 };
    });
    const task = await webhookTask(path);
    const sends = await waitForSends(testApp, task.id, 2, 40_000);
    expect(sends.map((send) => [send.status, send.error_message])).toEqual([
      ['failed', 'timed out'],
      ['success', null],
    ]);
  }, 60_000);

  it('should not send again when a finished delivery job runs a second time', async () => {
    const path = `/once-${randomUUID()}`;
    const task = await webhookTask(path);
    const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1);
    await rerunJob(testApp, delivery.job_id);
    expect(receiver.requestsTo(path)).toHaveLength(1);
    expect(await sendRows(testApp, task.id)).toHaveLength(1);
  });

  it('should send again with the same webhook-id when the process died before recording the attempt', async () => {
    const path = `/crash-${randomUUID()}`;
    const task = await webhookTask(path);
    const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1);
    // What a crash between the HTTP request and the commit leaves: the request went out, nothing
    // was recorded, the job is still the queue's (it comes back when it expires).
    await testApp.db.query('DELETE FROM notification_sends WHERE task_id = $1', [task.id]);
    await testApp.db.query('DELETE FROM notification_deliveries WHERE id = $1', [delivery.id]);
    await requeueJob(testApp, delivery.job_id);
    const sends = await waitForSends(testApp, task.id, 1);
    await waitForFinalDeliveries(testApp, task.id, 1);
    expect(await sendRows(testApp, task.id)).toHaveLength(1);
    expect(sends[0]).toMatchObject({ status: 'success', attempt: 1 });
    const requests = receiver.requestsTo(path);
    expect(requests).toHaveLength(2);
    expect(requests[1].headers['webhook-id']).toBe(requests[0].headers['webhook-id']);
    expect(requests[1].body).toBe(requests[0].body);
  });

  /** The receiver holds the first request to `path` for a second, then answers 500. */
  function slowFailure(path: string): void {
    receiver.respondWith((request) =>
      request.path.startsWith(path) ? { status: 500, delayMs: 1000 } : { status: 200 },
    );
  }

  it('should skip the next attempt when the channel was removed meanwhile', async () => {
    const path = `/removed-${randomUUID()}`;
    slowFailure(path);
    const task = await webhookTask(path);
    await waitFor(async () => receiver.requestsTo(path).length === 1, {
      what: 'the first attempt',
    });
    await testApp.http
      .put(`/api/v1/tasks/${task.id}`)
      .set('Authorization', user.auth)
      .send({ notifications: [] })
      .expect(200);
    const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1);
    expect(delivery).toMatchObject({ state: 'skipped', attempt: 2 });
    expect((await sendRows(testApp, task.id)).map((send) => send.error_message)).toEqual([
      'HTTP 500',
    ]);
    expect(receiver.requestsTo(path)).toHaveLength(1);
  });

  /** Failed webhook attempts the worker has recorded, as GET /metrics counts them. */
  async function failedWebhookAttempts(): Promise<number> {
    const families = parseExposition(await testApp.app.get(MetricsService).scrape());
    return (
      sampleValue(families, 'monitor_deliveries_total', { channel: 'webhook', status: 'failed' }) ??
      0
    );
  }

  it('should drop the deliveries of a task deleted while an attempt was under way', async () => {
    const path = `/deleted-${randomUUID()}`;
    slowFailure(path);
    const task = await webhookTask(path);
    await waitFor(async () => receiver.requestsTo(path).length === 1, {
      what: 'the first attempt',
    });
    const failedBefore = await failedWebhookAttempts();
    await testApp.http
      .delete(`/api/v1/tasks/${task.id}`)
      .set('Authorization', user.auth)
      .expect(204);
    await waitForSettledDeliveries(testApp, task.id);
    // The attempt under way ends, and its outcome is recorded without a next attempt.
    await waitFor(async () => (await failedWebhookAttempts()) > failedBefore, {
      what: 'the attempt under way to be recorded',
    });
    expect(receiver.requestsTo(path)).toHaveLength(1);
    expect(await sendRows(testApp, task.id)).toEqual([]);
  });

  it('should deliver for each met execution of an always task with a webhook id per execution', async () => {
    const path = `/always-${randomUUID()}`;
    const task = await webhookTask(path, {}, { notify_behavior: 'always' });
    await waitForSends(testApp, task.id, 1);
    await waitFor(
      async () => {
        const response = await testApp.http
          .post(`/api/v1/tasks/${task.id}/execute`)
          .set('Authorization', user.auth);
        return response.status === 200;
      },
      { what: 'a second run to start' },
    );
    await waitForSends(testApp, task.id, 2);
    const ids = receiver.requestsTo(path).map((request) => request.headers['webhook-id']);
    expect(ids).toHaveLength(2);
    expect(ids[0]).not.toBe(ids[1]);
  });
});
