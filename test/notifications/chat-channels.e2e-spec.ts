import { randomUUID } from 'node:crypto';
import { expectDetail } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import {
  answerByQuery,
  BOT_TOKEN,
  createTask,
  MET_ANSWER,
  waitForFinalDeliveries,
  waitForSends,
  waitForSettledDeliveries,
} from './notification-test-helpers';

const RETRY_MS = 200;

/**
 * Slack, Discord, ntfy and Telegram end to end: one local HTTP receiver speaks each app's side
 * (Telegram through TELEGRAM_API_BASE_URL pointing at it); each test uses paths of its own.
 */
describe('Chat and push channels', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let receiver: WebhookReceiver;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    receiver = await new WebhookReceiver().start();
    testApp = await startTestApp({
      gemini,
      env: {
        WEBHOOK_RETRY_SCHEDULE: `${RETRY_MS}ms,${RETRY_MS}ms,${RETRY_MS}ms`,
        TELEGRAM_API_BASE_URL: `${receiver.url}/telegram`,
      },
    });
    const factory = new Factory(testApp);
    owner = await factory.user();
    other = await factory.user();
    await testApp.http
      .patch('/api/v1/users/me/username')
      .set('Authorization', owner.auth)
      .send({ username: `owner_${randomUUID().slice(0, 8)}` })
      .expect(200);
    answerByQuery(gemini);
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
    await gemini.stop();
  });

  afterEach(() => {
    receiver.respondWith({ status: 200 });
  });

  /** Answers requests under `path` with these statuses in turn (the last one from then on). */
  function answerPath(
    path: string,
    ...replies: Array<{ status: number; headers?: Record<string, string> }>
  ): void {
    const queue = [...replies];
    const fallback = replies[replies.length - 1];
    receiver.respondWith((request: ReceivedWebhook) =>
      request.path.startsWith(path) ? (queue.shift() ?? fallback) : { status: 200 },
    );
  }

  it('should post Slack text and blocks and record the masked hook URL when the condition is met', async () => {
    const path = `/slack-${randomUUID()}/T000/B000/secret`;
    const task = await createTask(testApp, owner, {
      name: 'Slack <watch>',
      notifications: [{ type: 'slack', url: `${receiver.url}${path}` }],
    });
    const [send] = await waitForSends(testApp, task.id, 1);
    const [request] = receiver.requestsTo(path);
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    const body = JSON.parse(request.body) as {
      text: string;
      blocks: Array<Record<string, unknown>>;
    };
    expect(body.text).toBe(
      `Slack &lt;watch&gt;: condition met: Condition: ${task.condition_description}`,
    );
    expect(body.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Slack <watch>: condition met' },
    });
    expect(JSON.stringify(body.blocks)).toContain('Version 2.0 shipped &lt;today&gt; &amp;');
    expect(JSON.stringify(body.blocks)).toContain(
      '<https://example.com/blog/release?a=1&b=2|Release &lt;notes&gt;>',
    );
    expect(send).toMatchObject({
      notification_type: 'slack',
      event: 'condition_met',
      status: 'success',
      recipient: `${receiver.url}/****`,
    });
  });

  it('should wait for Retry-After when Discord answers 429, then deliver', async () => {
    const path = `/discord-${randomUUID()}`;
    answerPath(path, { status: 429, headers: { 'retry-after': '1' } }, { status: 204 });
    const task = await createTask(testApp, owner, {
      notifications: [{ type: 'discord', url: `${receiver.url}${path}` }],
    });
    const sends = await waitForSends(testApp, task.id, 2);
    expect(sends.map((send) => [send.attempt, send.status, send.error_message])).toEqual([
      [1, 'failed', 'HTTP 429 (Too Many Requests)'],
      [2, 'success', null],
    ]);
    const [first, second] = receiver.requestsTo(path);
    // The schedule says 200 ms; the receiver asked for a second.
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(950);
    const body = JSON.parse(second.body) as {
      content: string;
      embeds: Array<Record<string, unknown>>;
    };
    expect(body.content.length).toBeLessThanOrEqual(2000);
    expect(body.embeds[0]).toMatchObject({ url: 'https://example.com/blog/release?a=1&b=2' });
    expect(body.embeds[0].fields).toEqual(
      expect.arrayContaining([
        { name: 'Answer', value: 'Version 2.0 shipped \\<today\\> & "everyone" is happy' },
      ]),
    );
  });

  it('should stop at the first 404 when the ntfy topic is gone, and send the token and headers', async () => {
    const path = `/ntfy-${randomUUID()}`;
    answerPath(path, { status: 404 });
    const task = await createTask(testApp, owner, {
      name: 'Push watch',
      notifications: [{ type: 'ntfy', url: `${receiver.url}${path}`, token: 'tk_secret_token' }],
    });
    const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1);
    expect(delivery).toMatchObject({ state: 'failed', attempt: 1 });
    const requests = receiver.requestsTo(path);
    expect(requests).toHaveLength(1);
    expect(requests[0].headers).toMatchObject({
      title: 'Push watch: condition met',
      tags: 'white_check_mark',
      click: 'https://example.com/blog/release?a=1&b=2',
      authorization: 'Bearer tk_secret_token',
    });
    expect(requests[0].body).toContain(`Answer: ${MET_ANSWER}`);
    const [send] = await waitForSends(testApp, task.id, 1);
    expect(send).toMatchObject({
      status: 'failed',
      error_message: 'HTTP 404 (Not Found): retries stopped',
      recipient: `${receiver.url}/****`,
    });
  });

  it('should call sendMessage of the bot, retry a 500 and record the chat id only', async () => {
    const chatId = `-100${Date.now()}`;
    const path = `/telegram/bot${BOT_TOKEN}/sendMessage`;
    let calls = 0;
    receiver.respondWith((request: ReceivedWebhook) => {
      if (!request.path.startsWith(path) || !request.body.includes(chatId)) return { status: 200 };
      calls += 1;
      return { status: calls === 1 ? 500 : 200, body: '{"ok":true}' };
    });
    const task = await createTask(testApp, owner, {
      name: 'Bot <watch>',
      notifications: [{ type: 'telegram', chat_id: chatId, bot_token: BOT_TOKEN }],
    });
    const sends = await waitForSends(testApp, task.id, 2);
    expect(sends.map((send) => [send.status, send.recipient, send.error_message])).toEqual([
      ['failed', chatId, 'HTTP 500'],
      ['success', chatId, null],
    ]);
    const request = receiver
      .requestsTo(path)
      .find((item) => item.body.includes(chatId)) as ReceivedWebhook;
    const body = JSON.parse(request.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      chat_id: chatId,
      parse_mode: 'HTML',
      disable_web_page_preview: true,
    });
    expect(body.text).toContain('<b>Bot &lt;watch&gt;: condition met</b>');
    expect(body.text).toContain(
      '<a href="https://example.com/blog/release?a=1&amp;b=2">Release &lt;notes&gt;</a>',
    );
    expect(JSON.stringify(sends)).not.toContain(BOT_TOKEN);
  });

  it('should show secrets to the owner only and copy them into the owner’s fork only', async () => {
    const secrets = [
      { type: 'slack', url: `${receiver.url}/slack-secret/${randomUUID()}` },
      { type: 'discord', url: `${receiver.url}/discord-secret/${randomUUID()}` },
      { type: 'ntfy', url: `${receiver.url}/ntfy-secret`, token: 'tk_fork_secret' },
      { type: 'telegram', chat_id: '42', bot_token: BOT_TOKEN },
    ];
    const task = await createTask(testApp, owner, { state: 'paused', notifications: secrets });
    expect(task.notifications).toEqual(secrets);
    await testApp.http
      .patch(`/api/v1/tasks/${task.id}/visibility`)
      .set('Authorization', owner.auth)
      .send({ is_public: true })
      .expect(200);

    const seen = await testApp.http
      .get(`/api/v1/tasks/${task.id}`)
      .set('Authorization', other.auth)
      .expect(200);
    const publicView = await testApp.http.get(`/api/v1/public/tasks/id/${task.id}`).expect(200);
    const othersFork = await testApp.http
      .post(`/api/v1/tasks/${task.id}/fork`)
      .set('Authorization', other.auth)
      .send({})
      .expect(200);
    for (const body of [seen.body, publicView.body, othersFork.body]) {
      const text = JSON.stringify(body);
      expect(text).not.toContain('secret');
      expect(text).not.toContain(BOT_TOKEN);
      expect((body as { notifications: unknown[] }).notifications).toEqual([]);
    }
    const ownFork = await testApp.http
      .post(`/api/v1/tasks/${task.id}/fork`)
      .set('Authorization', owner.auth)
      .send({})
      .expect(200);
    expect((ownFork.body as { notifications: unknown[] }).notifications).toEqual(secrets);
  });

  it('should refuse a bad config with 400 "Invalid notification: ..."', async () => {
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ type: 'telegram', chat_id: '42', bot_token: 'nope' }, /^Invalid notification: bot_token/],
      [
        { type: 'telegram', chat_id: 'x y', bot_token: BOT_TOKEN },
        /^Invalid notification: chat_id/,
      ],
      [
        { type: 'slack', url: 'ftp://example.com/x' },
        'Invalid notification: url must be a valid http or https URL',
      ],
      [
        { type: 'ntfy', url: `${receiver.url}/t`, token: 'bad token\n' },
        /^Invalid notification: token/,
      ],
      [
        { type: 'discord', url: `${receiver.url}/d`, events: ['sometimes'] },
        /^Invalid notification: events/,
      ],
      [{ type: 'pager' }, /^Invalid notification: type must be one of/],
    ];
    for (const [config, detail] of cases) {
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({ search_query: 'Has version 2.0 shipped yet?', notifications: [config] });
      expectDetail(response, 400, detail);
    }
  });

  describe('POST /api/v1/tasks/{id}/notifications/test', () => {
    it('should send a test through every config at once, in any state, and record each attempt', async () => {
      const path = `/test-send-${randomUUID()}`;
      answerPath(`${path}/discord`, { status: 404 });
      const task = await createTask(testApp, owner, {
        state: 'paused',
        name: 'Test <send>',
        notifications: [
          { type: 'slack', url: `${receiver.url}${path}/slack` },
          { type: 'discord', url: `${receiver.url}${path}/discord` },
          { type: 'webhook', url: `${receiver.url}${path}/webhook` },
        ],
      });
      const response = await testApp.http
        .post(`/api/v1/tasks/${task.id}/notifications/test`)
        .set('Authorization', owner.auth)
        .expect(200);
      expect(response.body).toEqual({
        results: [
          { notification_type: 'slack', status: 'success', error_message: null },
          {
            notification_type: 'discord',
            status: 'failed',
            error_message: 'HTTP 404 (Not Found): retries stopped',
          },
          { notification_type: 'webhook', status: 'success', error_message: null },
        ],
      });
      const webhook = receiver.requestsTo(`${path}/webhook`)[0];
      expect(JSON.parse(webhook.body)).toMatchObject({
        type: 'task.test',
        data: { task: { id: task.id } },
      });
      expect(receiver.requestsTo(`${path}/slack`)[0].body).toContain(
        'Test &lt;send&gt;: test notification',
      );
      const { rows } = await testApp.db.query<{
        event: string;
        execution_id: string | null;
        attempt: number;
      }>('SELECT event, execution_id, attempt FROM notification_sends WHERE task_id = $1', [
        task.id,
      ]);
      expect(rows).toHaveLength(3);
      expect(
        rows.every((row) => row.event === 'test' && row.execution_id === null && row.attempt === 1),
      ).toBe(true);
      const history = await testApp.http
        .get(`/api/v1/notifications/sends?task_id=${task.id}`)
        .set('Authorization', owner.auth)
        .expect(200);
      expect(
        (history.body as { sends: Array<{ event: string }> }).sends.map((send) => send.event),
      ).toEqual(['test', 'test', 'test']);
      // No retry follows a failed test: no delivery job is left to run one.
      await waitForSettledDeliveries(testApp, task.id);
      expect(receiver.requestsTo(`${path}/discord`)).toHaveLength(1);
    });

    it('should test only the config of the type asked for', async () => {
      const path = `/test-one-${randomUUID()}`;
      const task = await createTask(testApp, owner, {
        state: 'paused',
        notifications: [
          { type: 'slack', url: `${receiver.url}${path}/slack` },
          { type: 'ntfy', url: `${receiver.url}${path}/ntfy` },
        ],
      });
      const response = await testApp.http
        .post(`/api/v1/tasks/${task.id}/notifications/test`)
        .set('Authorization', owner.auth)
        .send({ type: 'ntfy' })
        .expect(200);
      expect(response.body).toEqual({
        results: [{ notification_type: 'ntfy', status: 'success', error_message: null }],
      });
      expect(receiver.requestsTo(`${path}/slack`)).toHaveLength(0);
      expect(receiver.requestsTo(`${path}/ntfy`)[0].headers.title).toMatch(/: test notification$/);
    });

    it('should answer 400 when there is nothing to test, 404 to others and 422 for an unknown type', async () => {
      const task = await createTask(testApp, owner, { state: 'paused', notifications: [] });
      const url = `/api/v1/tasks/${task.id}/notifications/test`;
      expectDetail(
        await testApp.http.post(url).set('Authorization', owner.auth),
        400,
        'The task has no notifications',
      );
      expectDetail(
        await testApp.http.post(url).set('Authorization', owner.auth).send({ type: 'slack' }),
        400,
        'The task has no slack notification',
      );
      expectDetail(
        await testApp.http.post(url).set('Authorization', other.auth),
        404,
        'Task not found',
      );
      const unknown = await testApp.http
        .post(url)
        .set('Authorization', owner.auth)
        .send({ type: 'pager' });
      expect(unknown.status).toBe(422);
    });
  });

  it('should not deliver an event to a config whose events leave it out', async () => {
    const path = `/filtered-${randomUUID()}`;
    const task = await createTask(testApp, owner, {
      notifications: [
        { type: 'slack', url: `${receiver.url}${path}/slack`, events: ['check_failing'] },
        { type: 'discord', url: `${receiver.url}${path}/discord`, events: ['condition_met'] },
      ],
    });
    await waitForSends(testApp, task.id, 1);
    await waitFor(async () => receiver.requestsTo(`${path}/discord`).length === 1, {
      what: 'discord',
    });
    expect(receiver.requestsTo(`${path}/slack`)).toHaveLength(0);
  });
});
