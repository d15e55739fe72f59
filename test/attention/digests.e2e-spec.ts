import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { expectDetail } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import {
  createTask,
  queueDeliveries,
  type CreatedTask,
  type SendRow,
} from '../notifications/notification-test-helpers';

jest.setTimeout(150_000);

const MINUTE_MS = 60_000;
/** Events are captured before this much of the period is left (else the next minute's). */
const CAPTURE_MARGIN_MS = 25_000;
/** Tasks whose Discord digest overflows the 2,000 characters of one message. */
const CHAT_TASKS = 12;

interface DigestBody {
  type: string;
  timestamp: string;
  data: {
    period_start: string;
    period_end: string;
    events: Array<{
      type: string;
      timestamp: string;
      task: { id: string };
      execution: { id: string; answer: string };
    }>;
  };
}

/**
 * Digests end to end (docs/attention.md, "Digests"), on two instances of the service sharing one
 * database: the owner's digest is set a minute or two ahead, events of digest configs are
 * captured (held) as they happen, and at the period's end each destination gets one message.
 */
describe('Digests', () => {
  let testApp: TestApp;
  let second: TestApp;
  let receiver: WebhookReceiver;
  let smtp: SmtpTestServer;
  let owner: TestUser;
  let periodEnd: Date;
  const paths = {
    hook: `/hook-${randomUUID()}`,
    retry: `/retry-${randomUUID()}`,
    chat: `/discord-${randomUUID()}`,
  };
  const address = `digest-${randomUUID().slice(0, 8)}@example.com`;
  let hookTask: CreatedTask;
  let retryTask: CreatedTask;
  let mailTasks: CreatedTask[];
  let chatTasks: CreatedTask[];
  const executions = new Map<string, string[]>();

  /** A finished met-condition execution of `task`, whose deliveries are queued as a check's are. */
  async function metEvent(task: CreatedTask, answer: string): Promise<string> {
    const { rows } = await testApp.db.query<{ id: string }>(
      `INSERT INTO executions (task_id, status, trigger, completed_at, condition_met, answer,
         reasoning, grounding_sources, result)
       VALUES ($1, 'success', 'manual', now(), true, $2, 'Because.', '[]'::jsonb, '{}'::jsonb)
       RETURNING id`,
      [task.id, answer],
    );
    const executionId = rows[0].id;
    executions.set(task.id, [...(executions.get(task.id) ?? []), executionId]);
    await queueDeliveries(
      testApp,
      executionId,
      task.id,
      task.notifications.map((config) => config.type as 'webhook'),
    );
    return executionId;
  }

  async function sendsOf(taskId: string, event?: string): Promise<SendRow[]> {
    const { rows } = await testApp.db.query<SendRow & { delivery_id: string | null }>(
      `SELECT * FROM notification_sends WHERE task_id = $1 AND ($2::text IS NULL OR event = $2)
       ORDER BY attempt, created_at`,
      [taskId, event ?? null],
    );
    return rows;
  }

  function digestRequests(path: string): Promise<ReceivedWebhook[]> {
    return waitFor(
      () => {
        const requests = receiver.requestsTo(path);
        return Promise.resolve(requests.length > 0 ? requests : undefined);
      },
      {
        timeoutMs: Math.max(periodEnd.getTime() - Date.now(), 0) + 30_000,
        what: `a digest at ${path}`,
      },
    );
  }

  function secretOf(task: CreatedTask): string {
    return task.notifications.find((config) => config.type === 'webhook')?.secret as string;
  }

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    smtp = await new SmtpTestServer().start();
    const env = {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Monitor Alerts <alerts@monitor.test>',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s',
    };
    testApp = await startTestApp({ env });
    second = await startTestApp({ env, databaseUrl: testApp.databaseUrl, jwks: testApp.jwks });
    owner = await new Factory(testApp).user();

    // The digest at the start of the next minute that leaves time to capture every event.
    periodEnd = new Date(Math.ceil((Date.now() + CAPTURE_MARGIN_MS) / MINUTE_MS) * MINUTE_MS);
    const at = periodEnd.toISOString().slice(11, 16);
    await testApp.db.query('UPDATE users SET preferences = $1 WHERE id = $2', [
      { time_zone: 'UTC', quiet_hours: null, digest: { frequency: 'daily', at, weekday: 1 } },
      owner.id,
    ]);

    const digestHook = (path: string) => [
      { type: 'webhook', url: `${receiver.url}${path}`, delivery: 'digest' },
    ];
    hookTask = await createTask(testApp, owner, {
      state: 'paused',
      notifications: digestHook(paths.hook),
    });
    retryTask = await createTask(testApp, owner, {
      state: 'paused',
      notifications: digestHook(paths.retry),
    });
    mailTasks = await Promise.all(
      [address.toUpperCase(), address].map((to, index) =>
        createTask(testApp, owner, {
          state: 'paused',
          name: `Mail watch ${index + 1}`,
          notifications: [{ type: 'email', address: to, delivery: 'digest' }],
        }),
      ),
    );
    chatTasks = await Promise.all(
      Array.from({ length: CHAT_TASKS }, (_, index) =>
        createTask(testApp, owner, {
          state: 'paused',
          name: `Chat watch ${index + 1} ${'x'.repeat(180)}`,
          notifications: [
            { type: 'discord', url: `${receiver.url}${paths.chat}`, delivery: 'digest' },
          ],
        }),
      ),
    );
    receiver.respondWith((request) =>
      request.path.startsWith(paths.retry) && receiver.requestsTo(paths.retry).length === 1
        ? { status: 500 }
        : { status: 200 },
    );

    await metEvent(hookTask, 'First answer');
    await metEvent(hookTask, 'Second answer');
    await metEvent(retryTask, 'Retried answer');
    await metEvent(mailTasks[0], 'Mail answer one');
    await metEvent(mailTasks[1], 'Mail answer two');
    for (const task of chatTasks) await metEvent(task, 'Chat answer');
    const expected = 5 + CHAT_TASKS;
    await waitFor(
      async () => {
        const { rows } = await testApp.db.query<{ count: string }>(
          `SELECT count(*) FROM notification_sends WHERE user_id = $1 AND status = 'held'`,
          [owner.id],
        );
        return Number(rows[0].count) === expected;
      },
      { what: `${expected} held send records` },
    );
  }, 120_000);

  afterAll(async () => {
    await second?.close();
    await testApp?.close();
    await receiver?.stop();
    await smtp?.stop();
  });

  it('should hold the events of digest configs instead of sending them, until the period ends', async () => {
    expect(Date.now()).toBeLessThan(periodEnd.getTime());
    expect(receiver.requests).toEqual([]);
    expect(smtp.messages).toEqual([]);
    const sends = await sendsOf(hookTask.id);
    expect(sends).toEqual([
      expect.objectContaining({ event: 'condition_met', status: 'held', attempt: 0 }),
      expect.objectContaining({ event: 'condition_met', status: 'held', attempt: 0 }),
    ]);
    const { rows: deliveries } = await testApp.db.query(
      `SELECT id, state, hold_reason, held_until, attempt FROM notification_deliveries
       WHERE task_id = $1`,
      [hookTask.id],
    );
    expect(deliveries).toEqual([
      expect.objectContaining({
        state: 'held',
        hold_reason: 'digest',
        held_until: periodEnd,
        attempt: 0,
      }),
      expect.objectContaining({ state: 'held', hold_reason: 'digest', held_until: periodEnd }),
    ]);
    expect(
      sends.map((send) => (send as SendRow & { delivery_id: string }).delivery_id).sort(),
    ).toEqual(deliveries.map((delivery: { id: string }) => delivery.id).sort());
    // One job for the owner's period, due at its end, however many events it gathers.
    const { rows: jobs } = await testApp.db.query(
      `SELECT state, start_after, data FROM pgboss.job WHERE name = 'notification-digest'`,
    );
    expect(jobs).toEqual([
      {
        state: 'created',
        start_after: periodEnd,
        data: expect.objectContaining({ userId: owner.id, periodEnd: periodEnd.toISOString() }),
      },
    ]);
  });

  it('should send one signed webhook request with every event of the period when it ends', async () => {
    const [request, ...others] = await digestRequests(paths.hook);
    expect(others).toEqual([]);
    expect(Date.now()).toBeGreaterThanOrEqual(periodEnd.getTime());
    const body = new Webhook(secretOf(hookTask)).verify(request.body, {
      'webhook-id': request.headers['webhook-id'] as string,
      'webhook-timestamp': request.headers['webhook-timestamp'] as string,
      'webhook-signature': request.headers['webhook-signature'] as string,
    }) as DigestBody;
    expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    const { rows: completed } = await testApp.db.query<{ completed_at: Date }>(
      'SELECT completed_at FROM executions WHERE id = ANY($1::uuid[]) ORDER BY completed_at, id',
      [executions.get(hookTask.id)],
    );
    const [firstAt, secondAt] = completed.map((row) => row.completed_at.toISOString());
    expect(body).toEqual({
      type: 'digest',
      timestamp: periodEnd.toISOString(),
      data: {
        period_start: new Date(periodEnd.getTime() - 24 * 60 * MINUTE_MS).toISOString(),
        period_end: periodEnd.toISOString(),
        events: [
          expect.objectContaining({
            type: 'task.condition_met',
            timestamp: firstAt,
            task: expect.objectContaining({ id: hookTask.id, name: hookTask.name }),
            execution: expect.objectContaining({
              id: executions.get(hookTask.id)?.[0],
              condition_met: true,
              answer: 'First answer',
            }),
          }),
          expect.objectContaining({
            type: 'task.condition_met',
            timestamp: secondAt,
            execution: expect.objectContaining({
              id: executions.get(hookTask.id)?.[1],
              answer: 'Second answer',
            }),
          }),
        ],
      },
    });
    await waitFor(async () => (await sendsOf(hookTask.id, 'digest')).length === 1, {
      what: 'the digest send record',
    });
    expect(await sendsOf(hookTask.id)).toEqual([
      expect.objectContaining({ event: 'condition_met', status: 'success', attempt: 1 }),
      expect.objectContaining({ event: 'condition_met', status: 'success', attempt: 1 }),
      expect.objectContaining({
        event: 'digest',
        status: 'success',
        attempt: 1,
        execution_id: null,
        recipient: `${receiver.url}/****`,
      }),
    ]);
    const { rows: deliveries } = await testApp.db.query(
      'SELECT DISTINCT state FROM notification_deliveries WHERE task_id = $1',
      [hookTask.id],
    );
    expect(deliveries).toEqual([{ state: 'delivered' }]);
  });

  it('should put an event that arrives after its period went into the next period', async () => {
    await digestRequests(paths.hook);
    await metEvent(hookTask, 'Late answer');
    const late = await waitFor(
      async () => (await sendsOf(hookTask.id)).find((send) => send.status === 'held'),
      { what: 'the late event held' },
    );
    const { rows } = await testApp.db.query(
      'SELECT held_until FROM notification_deliveries WHERE id = $1',
      [(late as SendRow & { delivery_id: string }).delivery_id],
    );
    expect(rows).toEqual([{ held_until: new Date(periodEnd.getTime() + 24 * 60 * MINUTE_MS) }]);
  });

  it('should retry a failed webhook digest with the same webhook-id and update its records', async () => {
    await digestRequests(paths.retry);
    const sends = await waitFor(
      async () => {
        const rows = await sendsOf(retryTask.id, 'digest');
        return rows.length === 2 ? rows : undefined;
      },
      { what: 'two digest attempts' },
    );
    expect(sends.map((send) => [send.attempt, send.status, send.error_message])).toEqual([
      [1, 'failed', 'HTTP 500'],
      [2, 'success', null],
    ]);
    const requests = receiver.requestsTo(paths.retry);
    expect(requests).toHaveLength(2);
    expect(requests[1].headers['webhook-id']).toBe(requests[0].headers['webhook-id']);
    expect(requests[1].body).toBe(requests[0].body);
    expect(await sendsOf(retryTask.id, 'condition_met')).toEqual([
      expect.objectContaining({ status: 'success', attempt: 2 }),
    ]);
  });

  it('should gather the events of two tasks into one email to their address', async () => {
    const [email, ...others] = await waitFor(
      () => {
        const messages = smtp.messagesTo(address);
        return Promise.resolve(messages.length > 0 ? messages : undefined);
      },
      {
        timeoutMs: Math.max(periodEnd.getTime() - Date.now(), 0) + 30_000,
        what: 'the email digest',
      },
    );
    expect(others).toEqual([]);
    expect(email.subject).toBe(
      `[Monitor] Digest: 2 events from ${stamp(new Date(periodEnd.getTime() - 24 * 60 * MINUTE_MS))} to ${stamp(periodEnd)}`,
    );
    expect(email.messageId).toMatch(/^<[0-9a-f-]{36}@monitor\.test>$/);
    const first = email.text.indexOf('Mail watch 1: condition met');
    const second = email.text.indexOf('Mail watch 2: condition met');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThan(first);
    expect(email.text).toContain('Mail answer one');
    expect(email.text).toContain('Mail answer two');
    expect(email.text).toMatch(/Checked at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    await waitFor(
      async () =>
        (await sendsOf(mailTasks[0].id, 'digest')).length +
          (await sendsOf(mailTasks[1].id, 'digest')).length ===
        1,
      { what: 'one digest send record' },
    );
    for (const task of mailTasks) {
      expect(await sendsOf(task.id, 'condition_met')).toEqual([
        expect.objectContaining({ status: 'success' }),
      ]);
    }
  });

  it('should send a chat digest within the channel limit, the rest as "and N more"', async () => {
    const [request, ...others] = await digestRequests(paths.chat);
    expect(others).toEqual([]);
    const { content } = JSON.parse(request.body) as { content: string };
    expect(content.length).toBeLessThanOrEqual(2000);
    // Discord Markdown: hyphens and parentheses come escaped.
    const lines = content.replace(/\\([-()])/g, '$1').split('\n');
    expect(lines[0]).toBe(
      `**Digest: ${CHAT_TASKS} events from ${stamp(new Date(periodEnd.getTime() - 24 * 60 * MINUTE_MS))} to ${stamp(periodEnd)}**`,
    );
    const more = /^and (\d+) more$/.exec(lines.at(-1) ?? '');
    expect(more).not.toBeNull();
    const shown = lines.slice(1, -1);
    expect(shown[0]).toMatch(/^Chat watch \d+ x+: condition met \(/);
    expect(shown.length + Number(more?.[1])).toBe(CHAT_TASKS);
  });

  it('should send each digest once with two instances, and record one digest per destination', async () => {
    await Promise.all(Object.values(paths).map((path) => digestRequests(path)));
    const digests = await waitFor(
      async () => {
        const { rows } = await testApp.db.query<{ channel: string; state: string }>(
          `SELECT channel, state FROM notification_digests WHERE user_id = $1 ORDER BY channel`,
          [owner.id],
        );
        return rows.length === 4 && rows.every((row) => row.state === 'delivered')
          ? rows
          : undefined;
      },
      { what: 'four delivered digests' },
    );
    expect(digests.map((row) => row.channel)).toEqual(['discord', 'email', 'webhook', 'webhook']);
    // No digest job of the user is left due or running, on either instance: a second sender
    // would have shown itself by now.
    await waitFor(
      async () => {
        const { rows } = await testApp.db.query(
          `SELECT 1 FROM pgboss.job WHERE name = 'notification-digest'
             AND state IN ('created', 'retry', 'active') AND start_after <= now()
             AND (data ->> 'userId' = $1 OR data ->> 'digestId' IN
               (SELECT id::text FROM notification_digests WHERE user_id::text = $1))`,
          [owner.id],
        );
        return rows.length === 0;
      },
      { what: 'no live digest job for the user' },
    );
    expect(receiver.requestsTo(paths.hook)).toHaveLength(1);
    expect(receiver.requestsTo(paths.chat)).toHaveLength(1);
    expect(receiver.requestsTo(paths.retry)).toHaveLength(2);
    expect(smtp.messagesTo(address)).toHaveLength(1);
    const { rows } = await testApp.db.query<{ notification_type: string; count: string }>(
      `SELECT notification_type, count(*) FROM notification_sends
       WHERE user_id = $1 AND event = 'digest' AND status = 'success'
       GROUP BY notification_type ORDER BY notification_type`,
      [owner.id],
    );
    expect(rows).toEqual([
      { notification_type: 'discord', count: '1' },
      { notification_type: 'email', count: '1' },
      { notification_type: 'webhook', count: '2' },
    ]);
  });

  it('should store delivery only when given and refuse anything but instant or digest', async () => {
    const url = `${receiver.url}/validation-${randomUUID()}`;
    const create = (config: Record<string, unknown>) =>
      testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({
          search_query: 'Is it out?',
          state: 'paused',
          notifications: [{ type: 'webhook', url, ...config }],
        });
    for (const delivery of ['weekly', null, 'DIGEST', 1]) {
      expectDetail(
        await create({ delivery }),
        400,
        'Invalid notification: delivery must be instant or digest',
      );
    }
    const plain = await create({}).expect(200);
    expect(plain.body.notifications[0]).not.toHaveProperty('delivery');
    const instant = await create({ delivery: 'instant' }).expect(200);
    expect(instant.body.notifications[0]).toMatchObject({ delivery: 'instant' });
    const updated = await testApp.http
      .put(`/api/v1/tasks/${plain.body.id}`)
      .set('Authorization', owner.auth)
      .send({ notifications: [{ type: 'webhook', url, delivery: 'digest' }] })
      .expect(200);
    expect(updated.body.notifications[0]).toMatchObject({ delivery: 'digest' });
  });
});

/** A time as digests write it: `2026-11-26 08:00:00 UTC`. */
function stamp(date: Date): string {
  return `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}
