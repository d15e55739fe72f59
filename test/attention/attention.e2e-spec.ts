import { randomUUID } from 'node:crypto';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import {
  answerByQuery,
  createTask,
  MET,
  sendRows,
  waitForSettledDeliveries,
} from '../notifications/notification-test-helpers';

interface WebhookBody {
  type: string;
  data: { repeat?: number; folded?: number };
}

/**
 * docs/attention.md: alert policies (cooldowns, reminders), acknowledgement, preferences and quiet
 * hours, and configs that pause themselves, through the API and the real delivery pipeline.
 */
describe('Attention', () => {
  let gemini: GeminiStandIn;
  let receiver: WebhookReceiver;
  let smtp: SmtpTestServer;
  let testApp: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    answerByQuery(gemini);
    receiver = await new WebhookReceiver().start();
    smtp = await new SmtpTestServer().start();
    testApp = await startTestApp({
      gemini,
      env: {
        SMTP_URL: smtp.url,
        ALERT_MIN_COOLDOWN: '1s',
        ALERT_MIN_REPEAT: '1s',
        CHANNEL_PAUSE_AFTER_FAILURES: '2',
        WEBHOOK_RETRY_SCHEDULE: '100ms',
      },
    });
    user = await new Factory(testApp).user();
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
    await smtp.stop();
    await gemini.stop();
  });

  async function runCheck(taskId: string, owner: TestUser = user): Promise<void> {
    const { body } = await testApp.http
      .post(`/api/v1/tasks/${taskId}/execute`)
      .set('Authorization', owner.auth)
      .expect(200);
    const executionId = (body as { id: string }).id;
    await waitFor(
      async () => {
        const { rows } = await testApp.db.query<{ status: string }>(
          'SELECT status FROM executions WHERE id = $1',
          [executionId],
        );
        return rows[0]?.status === 'success';
      },
      { what: 'the check to finish' },
    );
  }

  /**
   * Resumes a paused task and waits for the check its resume makes due at once: a check run
   * besides it would race it (a 409, or one alert more).
   */
  async function resumeAndCheck(taskId: string): Promise<void> {
    await testApp.http
      .put(`/api/v1/tasks/${taskId}`)
      .set('Authorization', user.auth)
      .send({ state: 'active' })
      .expect(200);
    await waitFor(
      async () => {
        const { rows } = await testApp.db.query(
          "SELECT 1 FROM executions WHERE task_id = $1 AND status = 'success'",
          [taskId],
        );
        return rows.length > 0 || undefined;
      },
      { what: "the resume's check" },
    );
  }

  async function getTask(taskId: string): Promise<Record<string, unknown>> {
    const { body } = await testApp.http
      .get(`/api/v1/tasks/${taskId}`)
      .set('Authorization', user.auth)
      .expect(200);
    return body as Record<string, unknown>;
  }

  function webhookTask(path: string, body: Record<string, unknown>) {
    return createTask(testApp, user, {
      state: 'paused',
      notify_behavior: 'always',
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
      ...body,
    });
  }

  describe('alert_policy', () => {
    it.each([
      [
        { cooldown: '500ms' },
        'Invalid alert_policy: cooldown must be a duration such as 30s, 15m, 2h or 1d',
      ],
      [{ cooldown: '31d' }, 'Invalid alert_policy: cooldown must be at most 30d'],
      [{ repeat_every: '31d' }, 'Invalid alert_policy: repeat_every must be at most 30d'],
      [{ repeat_every: '999999999d' }, 'Invalid alert_policy: repeat_every must be at most 30d'],
      [{ repeat_max: 101 }, 'Invalid alert_policy: repeat_max must be an integer from 1 to 100'],
      [{ repeat_max: 0 }, 'Invalid alert_policy: repeat_max must be an integer from 1 to 100'],
      [{ snooze: '1h' }, "Invalid alert_policy: unknown field 'snooze'"],
    ])('should refuse %j with 400', async (policy, detail) => {
      const { body } = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .send({ search_query: 'Has version 2.0 shipped?', state: 'paused', alert_policy: policy })
        .expect(400);
      expect(body).toEqual({ detail });
    });

    it('should store the policy with its defaults and refuse repeat_every once not always', async () => {
      const task = await webhookTask('/policy', { alert_policy: { repeat_every: '15m' } });
      expect((await getTask(task.id)).alert_policy).toEqual({
        cooldown: null,
        repeat_every: '15m',
        repeat_max: 10,
      });
      const { body } = await testApp.http
        .put(`/api/v1/tasks/${task.id}`)
        .set('Authorization', user.auth)
        .send({ notify_behavior: 'once' })
        .expect(400);
      expect(body).toEqual({
        detail: "Invalid alert_policy: repeat_every needs notify_behavior 'always'",
      });
      const cleared = await testApp.http
        .put(`/api/v1/tasks/${task.id}`)
        .set('Authorization', user.auth)
        .send({ alert_policy: null, notify_behavior: 'once' })
        .expect(200);
      expect((cleared.body as { alert_policy: unknown }).alert_policy).toBeNull();
    });
  });

  it('should alert and plan the first reminder 30d ahead when a stored repeat_every is longer', async () => {
    const path = `/stored-repeat-${randomUUID()}`;
    const task = await webhookTask(path, { alert_policy: { repeat_every: '1h' } });
    // A row saved before the limit existed.
    await testApp.db.query(
      `UPDATE tasks SET alert_policy = '{"cooldown":"999999999d","repeat_every":"999999999d","repeat_max":10}'
       WHERE id = $1`,
      [task.id],
    );
    const checkedAt = Date.now();
    await resumeAndCheck(task.id);
    await waitFor(async () => receiver.requestsTo(path).length === 1 || undefined, {
      what: 'the alert',
    });
    const { rows } = await testApp.db.query<{ start_after: Date }>(
      `SELECT start_after FROM pgboss.job WHERE data->>'taskId' = $1 AND data ? 'repeat'`,
      [task.id],
    );
    expect(rows).toHaveLength(1);
    const ahead = rows[0].start_after.getTime() - checkedAt;
    expect(ahead).toBeGreaterThan(29 * 86_400_000);
    expect(ahead).toBeLessThanOrEqual(30 * 86_400_000 + 60_000);
  });

  describe('preferences', () => {
    it('should answer the defaults, replace the objects a PUT names and refuse invalid ones', async () => {
      const own = await new Factory(testApp).user();
      const get = () =>
        testApp.http.get('/api/v1/users/me/preferences').set('Authorization', own.auth).expect(200);
      expect((await get()).body).toEqual({
        time_zone: 'UTC',
        quiet_hours: null,
        digest: { frequency: 'daily', at: '08:00', weekday: 1 },
      });
      await testApp.http
        .put('/api/v1/users/me/preferences')
        .set('Authorization', own.auth)
        .send({ time_zone: 'europe/paris', quiet_hours: { start: '22:00', end: '07:00' } })
        .expect(200);
      await testApp.http
        .put('/api/v1/users/me/preferences')
        .set('Authorization', own.auth)
        .send({ digest: { frequency: 'weekly' } })
        .expect(200);
      expect((await get()).body).toEqual({
        time_zone: 'Europe/Paris',
        quiet_hours: { start: '22:00', end: '07:00' },
        digest: { frequency: 'weekly', at: '08:00', weekday: 1 },
      });
      const refused = await testApp.http
        .put('/api/v1/users/me/preferences')
        .set('Authorization', own.auth)
        .send({ quiet_hours: { start: '08:00', end: '08:00' } })
        .expect(400);
      expect((refused.body as { detail: string }).detail).toMatch(/^Invalid preferences: /);
    });

    it('should answer the zone name as sent when the runtime files it under another', async () => {
      const own = await new Factory(testApp).user();
      const put = await testApp.http
        .put('/api/v1/users/me/preferences')
        .set('Authorization', own.auth)
        .send({ time_zone: 'Asia/Kathmandu' })
        .expect(200);
      expect((put.body as { time_zone: string }).time_zone).toBe('Asia/Kathmandu');
      const { body } = await testApp.http
        .get('/api/v1/users/me/preferences')
        .set('Authorization', own.auth)
        .expect(200);
      expect((body as { time_zone: string }).time_zone).toBe('Asia/Kathmandu');
    });
  });

  it('should remind of a met condition until acknowledged, with data.repeat', async () => {
    const path = `/remind-${randomUUID()}`;
    const task = await webhookTask(path, {
      alert_policy: { repeat_every: '1s', repeat_max: 5 },
    });
    const none = await testApp.http
      .post(`/api/v1/tasks/${task.id}/acknowledge`)
      .set('Authorization', user.auth)
      .expect(409);
    expect(none.body).toEqual({ detail: 'No alert to acknowledge' });

    await resumeAndCheck(task.id);
    const bodies = await waitFor(
      async () => {
        const received = receiver
          .requestsTo(path)
          .map((request) => JSON.parse(request.body) as WebhookBody);
        return received.length >= 3 ? received : undefined;
      },
      { what: 'the alert and two reminders' },
    );
    expect(bodies.map((body) => [body.type, body.data.repeat])).toEqual([
      ['task.condition_met', undefined],
      ['task.condition_met', 1],
      ['task.condition_met', 2],
    ]);
    const alert = (await getTask(task.id)).alert as Record<string, unknown>;
    expect(alert.acknowledged_at).toBeNull();
    expect(alert.repeats_sent).toBeGreaterThanOrEqual(2);

    const acknowledged = await testApp.http
      .post(`/api/v1/tasks/${task.id}/acknowledge`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(acknowledged.body).toEqual({
      acknowledged_execution_id: alert.execution_id,
      acknowledged_at: expect.any(String),
    });
    const again = await testApp.http
      .post(`/api/v1/tasks/${task.id}/acknowledge`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(again.body).toEqual(acknowledged.body);
    const count = receiver.requestsTo(path).length;
    // Once no delivery job is left, no reminder can follow; at most the one already under way at
    // the acknowledgement went.
    await waitForSettledDeliveries(testApp, task.id);
    expect(receiver.requestsTo(path).length).toBeLessThanOrEqual(count + 1);
    const rows = await sendRows(testApp, task.id);
    expect(rows.filter((row) => row.event === 'reminder').length).toBeGreaterThanOrEqual(2);
  });

  it('should fold the alerts of a cooldown into one with data.folded, records held then sent or skipped', async () => {
    const path = `/cooldown-${randomUUID()}`;
    const task = await webhookTask(path, { alert_policy: { cooldown: '4s' } });
    await resumeAndCheck(task.id);
    await waitFor(async () => receiver.requestsTo(path).length === 1 || undefined, {
      what: 'the first alert',
    });
    await runCheck(task.id);
    await runCheck(task.id);
    const held = await waitFor(
      async () => {
        const rows = (await sendRows(testApp, task.id)).filter((row) => row.status === 'held');
        return rows.length === 2 ? rows : undefined;
      },
      { what: 'two held records' },
    );
    expect(held.map((row) => row.event)).toEqual(['condition_met', 'condition_met']);
    expect(receiver.requestsTo(path)).toHaveLength(1);

    const bodies = await waitFor(
      async () => {
        const received = receiver
          .requestsTo(path)
          .map((request) => JSON.parse(request.body) as WebhookBody);
        return received.length === 2 ? received : undefined;
      },
      { what: 'the folded alert', timeoutMs: 15_000 },
    );
    expect(bodies[1].data.folded).toBe(2);
    const statuses = await waitFor(
      async () => {
        const rows = await sendRows(testApp, task.id);
        const sorted = rows.map((row) => row.status).sort();
        return sorted.includes('held') ? undefined : sorted;
      },
      { what: 'the held records to end' },
    );
    expect(statuses).toEqual(['skipped', 'success', 'success']);
    await waitForSettledDeliveries(testApp, task.id);
    expect(receiver.requestsTo(path)).toHaveLength(2);
  });

  it('should hold an alert in quiet hours and send it when they end, updating its record', async () => {
    const own = await new Factory(testApp).user();
    const now = new Date();
    const hhmm = (date: Date) => date.toISOString().slice(11, 16);
    await testApp.http
      .put('/api/v1/users/me/preferences')
      .set('Authorization', own.auth)
      .send({
        quiet_hours: {
          start: hhmm(new Date(now.getTime() - 3_600_000)),
          end: hhmm(new Date(now.getTime() + 60_000)),
        },
      })
      .expect(200);
    const path = `/quiet-${randomUUID()}`;
    const task = await new Factory(testApp).task(own, {
      search_query: `Shipped? ${MET} ${randomUUID()}`,
      state: 'active',
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
    });
    const [record] = await waitFor(
      async () => {
        const rows = await sendRows(testApp, task.id);
        return rows.length > 0 ? rows : undefined;
      },
      { what: 'the held record' },
    );
    expect(record.status).toBe('held');
    expect(receiver.requestsTo(path)).toHaveLength(0);
    await waitFor(async () => receiver.requestsTo(path).length === 1 || undefined, {
      what: 'the release at the end of the quiet hours',
      timeoutMs: 125_000,
    });
    const rows = await waitFor(
      async () => {
        const found = await sendRows(testApp, task.id);
        return found[0]?.status === 'success' ? found : undefined;
      },
      { what: 'the held record to be updated' },
    );
    expect(rows).toHaveLength(1);
  }, 150_000);

  it('should pause a config after deliveries in a row failed, skip its events and resume it', async () => {
    const path = `/pause-${randomUUID()}`;
    receiver.respondWith((request) =>
      request.path.startsWith(path) ? { status: 404, body: 'gone' } : { status: 200, body: 'ok' },
    );
    const task = await webhookTask(path, {});
    await resumeAndCheck(task.id);
    await runCheck(task.id);
    const config = await waitFor(
      async () => {
        const [found] = (await getTask(task.id)).notifications as Array<Record<string, unknown>>;
        return found.paused_at ? found : undefined;
      },
      { what: 'the config to pause' },
    );
    expect(config.pause_reason).toBe('2 deliveries in a row failed: HTTP 404');
    // The owner is told once, at the account's address.
    const [notice] = await waitFor(
      async () => {
        const found = smtp.messagesTo(user.email);
        return found.length > 0 ? found : undefined;
      },
      { what: "the owner's notice" },
    );
    expect(notice.subject).toBe(`[Monitor] ${task.name}: Webhook notifications paused`);
    expect(notice.text).toContain('2 deliveries in a row failed: HTTP 404');
    expect(notice.text).toContain(`/api/v1/tasks/${task.id}/notifications/webhook/resume`);
    const sent = receiver.requestsTo(path).length;
    await runCheck(task.id);
    const skipped = await waitFor(
      async () =>
        (await sendRows(testApp, task.id)).find((row) => row.status === 'skipped') ?? undefined,
      { what: 'a skipped record' },
    );
    expect(skipped.error_message).toBe('Paused: 2 deliveries in a row failed: HTTP 404');
    expect(receiver.requestsTo(path)).toHaveLength(sent);

    const resumed = await testApp.http
      .post(`/api/v1/tasks/${task.id}/notifications/webhook/resume`)
      .set('Authorization', user.auth)
      .expect(200);
    const [after] = (resumed.body as { notifications: Array<Record<string, unknown>> })
      .notifications;
    expect(after.paused_at).toBeUndefined();
    expect(after.pause_reason).toBeUndefined();
    await testApp.http
      .post(`/api/v1/tasks/${task.id}/notifications/slack/resume`)
      .set('Authorization', user.auth)
      .expect(404);
    receiver.respondWith({ status: 200, body: 'ok' });
    expect(smtp.messagesTo(user.email)).toHaveLength(1);

    // Saving the notifications resumes a paused config too.
    await testApp.db.query(
      `UPDATE tasks SET notifications = jsonb_set(notifications, '{0,paused_at}', '"2026-01-01T00:00:00.000Z"')
       WHERE id = $1`,
      [task.id],
    );
    const saved = await testApp.http
      .put(`/api/v1/tasks/${task.id}`)
      .set('Authorization', user.auth)
      .send({ notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }] })
      .expect(200);
    expect(
      (saved.body as { notifications: Array<Record<string, unknown>> }).notifications[0].paused_at,
    ).toBeUndefined();
  });

  it('should tell an owner whose address is not verified nothing, the pause showing on the task', async () => {
    const unverified = await new Factory(testApp).user({ emailVerified: false });
    const path = `/pause-unverified-${randomUUID()}`;
    receiver.respondWith((request) =>
      request.path.startsWith(path) ? { status: 404, body: 'gone' } : { status: 200, body: 'ok' },
    );
    const task = await new Factory(testApp).task(unverified, {
      search_query: `Shipped? ${MET} ${randomUUID()}`,
      notify_behavior: 'always',
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
    });
    for (let check = 0; check < 2; check += 1) await runCheck(task.id, unverified);
    // The notice's job ends without sending anything.
    await waitFor(
      async () => {
        const { rows } = await testApp.db.query<{ state: string }>(
          `SELECT state FROM pgboss.job WHERE name = 'owner-notice' AND data->>'taskId' = $1`,
          [task.id],
        );
        return rows[0]?.state === 'completed';
      },
      { what: "the owner notice's job to complete" },
    );
    receiver.respondWith({ status: 200, body: 'ok' });
    expect(smtp.messagesTo(unverified.email)).toHaveLength(0);
    const { body } = await testApp.http
      .get(`/api/v1/tasks/${task.id}`)
      .set('Authorization', unverified.auth)
      .expect(200);
    const [config] = (body as { notifications: Array<Record<string, unknown>> }).notifications;
    expect(config.pause_reason).toBe('2 deliveries in a row failed: HTTP 404');
  });
});
