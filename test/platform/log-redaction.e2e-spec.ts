import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { DataSource, QueryFailedError } from 'typeorm';
import { ROOT_LOGGER } from '../../src/common/logging/log-context';
import {
  createTask,
  MET,
  waitForFinalDeliveries,
  type CreatedTask,
} from '../notifications/notification-test-helpers';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn, type RecordedGeminiRequest } from '../support/gemini-stand-in';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

type LogLine = Record<string, unknown>;

/** Letters and digits only, so no rule of the log's text masking is what hides it. */
function secretText(length = 32): string {
  return randomBytes(length)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, length);
}

const RETRY = 'provider-retry-marker';
const FAIL = 'provider-fail-marker';

/**
 * docs/logging.md: every kind of secret the service handles is planted, the flows that handle it
 * run with `LOG_LEVEL=debug`, and no line of the process's log carries any of them (nor an email
 * address); the request lines and the lines of checks and deliveries carry the fields that page
 * names.
 */
describe('Logs', () => {
  const lines: string[] = [];
  const smtpPassword = `pw${secretText()}`;
  const botToken = `123456789:${secretText(35)}`;
  const ntfyToken = `tk_${secretText(29)}`;
  const hookHeader = `Bearer header${secretText()}`;
  const slackSecret = secretText();
  const discordSecret = secretText();
  const address = `alerts.${secretText(8).toLowerCase()}@example.org`;
  let gemini: GeminiStandIn;
  let receiver: WebhookReceiver;
  let smtp: SmtpTestServer;
  let testApp: TestApp;
  let user: TestUser;
  let emailCode: string;
  let task: CreatedTask;
  let retried: CreatedTask;
  let failed: CreatedTask;
  const planted: Record<string, string> = {};

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    receiver = await new WebhookReceiver().start();
    smtp = await new SmtpTestServer().start();
    testApp = await startTestApp({
      gemini,
      env: {
        LOG_LEVEL: 'debug',
        EMAIL_RECIPIENT_POLICY: 'verified',
        SMTP_URL: `smtp://monitor:${smtpPassword}@127.0.0.1:${smtp.port}`,
        TELEGRAM_API_BASE_URL: `${receiver.url}/telegram`,
      },
      logDestination: { write: (chunk: string) => void lines.push(...chunk.split('\n')) },
    });
    // Every chat channel's receiver refuses: each delivery fails, and says so in the log.
    receiver.respondWith({ status: 404 });
    const retriedOnce = new Set<string>();
    gemini.respondWith((request: RecordedGeminiRequest) => {
      // The provider's error bodies quote the API key: the service must not pass it on.
      if (request.promptText.includes(FAIL))
        return gemini.errorReply(400, `API key ${gemini.apiKey} is not allowed here`);
      if (request.promptText.includes(RETRY) && !retriedOnce.has(request.promptText)) {
        retriedOnce.add(request.promptText);
        return gemini.errorReply(503, `Overloaded (key ${gemini.apiKey})`);
      }
      return gemini.checkReply({ conditionMet: true, answer: 'Shipped.', reasoning: 'It did.' });
    });

    user = await new Factory(testApp).user({ emailVerified: true });
    Object.assign(planted, {
      'API key': user.apiKey,
      JWT: user.jwt,
      'JWT signature': user.jwt.split('.')[2],
      'SMTP password': smtpPassword,
      'Telegram bot token': botToken,
      'Telegram bot secret': botToken.split(':')[1],
      'ntfy token': ntfyToken,
      'webhook header': hookHeader,
      'Slack hook URL': slackSecret,
      'Discord hook URL': discordSecret,
      'provider API key': gemini.apiKey,
      'email address': address,
      "user's email address": user.email,
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await smtp?.stop();
    await receiver?.stop();
    await gemini?.stop();
  });

  function parsed(): LogLine[] {
    return lines.filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as LogLine);
  }

  it('should handle every planted secret in the flows that use it', async () => {
    // API keys: one more created, then used, with the query string holding a secret too.
    const created = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', `Bearer ${user.jwt}`)
      .send({ name: 'second key' })
      .expect(200);
    planted['new API key'] = (created.body as { key: string }).key;
    await testApp.http
      .get(`/api/v1/tasks?limit=10&token=${ntfyToken}&email=${encodeURIComponent(address)}`)
      .set('Authorization', `Bearer ${planted['new API key']}`)
      .expect(200);
    await testApp.http.get('/api/v1/tasks').set('Authorization', `Bearer ${user.jwt}`).expect(200);

    // Email verification: the code is mailed, a wrong one and the right one are confirmed.
    await testApp.http
      .post('/api/v1/email-verifications')
      .set('Authorization', user.auth)
      .send({ email: address })
      .expect(200);
    const mail = await waitFor(async () => smtp.messagesTo(address)[0], { what: 'the code' });
    emailCode = /\b(\d{6})\b/.exec(mail.subject)?.[1] as string;
    planted['email code'] = emailCode;
    const wrong = emailCode === '000000' ? '000001' : '000000';
    await testApp.http
      .post('/api/v1/email-verifications/confirm')
      .set('Authorization', user.auth)
      .send({ email: address, code: wrong })
      .expect(400);
    await testApp.http
      .post('/api/v1/email-verifications/confirm')
      .set('Authorization', user.auth)
      .send({ email: address, code: emailCode })
      .expect(200);

    // A task with every channel; its first check meets the condition and notifies each one.
    task = await createTask(testApp, user, {
      notifications: [
        { type: 'email', address },
        {
          type: 'webhook',
          url: `${receiver.url}/webhook-${randomUUID()}`,
          headers: { Authorization: hookHeader },
        },
        { type: 'slack', url: `${receiver.url}/services/T000/B000/${slackSecret}` },
        { type: 'discord', url: `${receiver.url}/api/webhooks/42/${discordSecret}` },
        { type: 'ntfy', url: `${receiver.url}/ntfy-topic`, token: ntfyToken },
        { type: 'telegram', chat_id: '-1001234567890', bot_token: botToken },
      ],
    });
    const webhook = task.notifications.find((entry) => entry.type === 'webhook');
    planted['webhook secret'] = webhook?.secret as string;
    expect(planted['webhook secret']).toMatch(/^whsec_/);
    planted['webhook secret key'] = planted['webhook secret'].slice('whsec_'.length);

    await testApp.http
      .post(`/api/v1/tasks/${task.id}/notifications/test`)
      .set('Authorization', user.auth)
      .send({})
      .expect(200);
    await waitForFinalDeliveries(testApp, task.id, 6);

    // Checks that go wrong: one provider retry, one failure; both quote the provider's key.
    retried = await createTask(testApp, user, {
      search_query: `Is it out? ${MET} ${RETRY} ${randomUUID()}`,
    });
    failed = await createTask(testApp, user, {
      search_query: `Is it out? ${FAIL} ${randomUUID()}`,
    });
    await waitFor(
      async () => hasLine('Check failed', failed.id) && hasLine('retrying', retried.id),
      {
        what: 'the failed and the retried check in the log',
      },
    );

    await testApp.http
      .delete(`/api/v1/email-verifications/${encodeURIComponent(address)}`)
      .set('Authorization', user.auth)
      .expect(204);
    await testApp.http.get(`/no-such-page/${address}/x?email=${address}`).expect(404);

    // The secrets did reach the outside world, so the flows above did handle them.
    expect(receiver.requestsTo(`/telegram/bot${botToken}/sendMessage`).length).toBeGreaterThan(0);
    const ntfy = receiver.requestsTo('/ntfy-topic');
    expect(ntfy.map((request) => request.headers.authorization)).toContain(`Bearer ${ntfyToken}`);
    expect(smtp.messagesTo(address).length).toBeGreaterThan(1);
  });

  function hasLine(text: string, taskId: string): boolean {
    return parsed().some((line) => String(line.msg).includes(text) && line.taskId === taskId);
  }

  it('should carry no planted secret and no email address in any line', () => {
    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThan(50);
    const leaked = Object.entries(planted).filter(([, secret]) => all.includes(secret));
    expect(leaked.map(([kind]) => kind)).toEqual([]);
    // A 6-digit code only counts where it stands alone (not inside an id).
    expect(all).not.toMatch(new RegExp(`(?<![A-Za-z0-9])${emailCode}(?![A-Za-z0-9])`));
    expect(all).not.toContain(encodeURIComponent(address));
    expect(all).not.toMatch(/[A-Za-z0-9._+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}/);
  });

  it('should log one line per request with its id, method, route, status and duration', async () => {
    const id = `log-test-${randomUUID()}`;
    await testApp.http
      .get(`/api/v1/tasks/${task.id}?secret=${ntfyToken}`)
      .set('Authorization', user.auth)
      .set('X-Request-Id', id)
      .expect(200);
    const requestLines = parsed().filter((line) => line.requestId === id);
    expect(requestLines).toEqual([
      expect.objectContaining({
        level: 'info',
        method: 'GET',
        route: '/api/v1/tasks/:id',
        status: 200,
        durationMs: expect.any(Number) as number,
        msg: 'request completed',
      }),
    ]);
    const masked = parsed().find(
      (line) => line.method === 'DELETE' && String(line.route).includes('email-verifications'),
    );
    expect(masked?.route).toBe('/api/v1/email-verifications/:email');
    const unknown = parsed().find((line) => String(line.route).startsWith('/no-such-page/'));
    expect(unknown).toMatchObject({ route: '/no-such-page/[email]/x', status: 404 });
  });

  it('should name only the first 200 characters of a long path that matched no route', async () => {
    const id = `long-path-${randomUUID()}`;
    const path = `/${'a.'.repeat(7_000)}/${address}`;
    await testApp.http.get(path).set('X-Request-Id', id).expect(404);
    const line = parsed().find((entry) => entry.requestId === id);
    expect(line).toMatchObject({ route: path.slice(0, 200), status: 404 });
  });

  it('should put the task and execution ids on the lines of a check', async () => {
    const executionOf = async (taskId: string) =>
      (
        await testApp.db.query<{ id: string }>('SELECT id FROM executions WHERE task_id = $1', [
          taskId,
        ])
      ).rows.map((row) => row.id);
    const failedLine = parsed().find(
      (line) => line.msg === 'Check failed' && line.taskId === failed.id,
    );
    expect(failedLine).toMatchObject({ level: 'warn', context: 'CheckRunnerService' });
    expect(await executionOf(failed.id)).toContain(failedLine?.executionId);
    expect(String(failedLine?.error)).toContain('rejected the request with HTTP 400');

    const retryLine = parsed().find(
      (line) => String(line.msg).includes('retrying') && line.taskId === retried.id,
    );
    expect(retryLine).toMatchObject({ level: 'warn', context: 'SearchProvider' });
    expect(await executionOf(retried.id)).toContain(retryLine?.executionId);
  });

  it('should put the task, execution and delivery ids on the lines of a delivery', async () => {
    const { rows } = await testApp.db.query<{ id: string; execution_id: string; channel: string }>(
      'SELECT id, execution_id, channel FROM notification_deliveries WHERE task_id = $1',
      [task.id],
    );
    const failures = parsed().filter(
      (line) => line.msg === 'Notification delivery failed' && line.taskId === task.id,
    );
    // Every HTTP channel's receiver answered 404; email went through.
    expect(failures.map((line) => line.channel).sort()).toEqual(
      ['discord', 'ntfy', 'slack', 'telegram', 'webhook'].sort(),
    );
    for (const line of failures) {
      const delivery = rows.find((row) => row.channel === line.channel);
      expect(line).toMatchObject({
        executionId: delivery?.execution_id,
        deliveryId: delivery?.id,
        context: 'DeliveryOutcomeRecorder',
      });
    }
  });

  it('should censor secret fields and mask secrets in text, and find what is left in the clear', () => {
    const root = testApp.app.get<Logger>(ROOT_LOGGER);
    const canary = `canary${secretText()}`;
    const hidden = `hidden${secretText()}`;
    root.info({ note: canary, secret: hidden, config: { bot_token: hidden } }, 'canary');
    root.warn(
      `posting to https://hooks.slack.com/services/T0/B0/${hidden} and smtp://u:${hidden}@mail with whsec_${hidden}`,
    );
    root.error({ err: Object.assign(new Error(`Bearer ${hidden}`), { config: { hidden } }) });
    const all = lines.join('\n');
    // The search above would find a secret that got through: this one is meant to.
    expect(all).toContain(canary);
    expect(all).not.toContain(hidden);
  });

  it('should log a failed statement by its SQLSTATE and name, never its parameters', async () => {
    const hidden = `param${secretText()}`;
    const consoleCalls = (['log', 'info', 'warn', 'error'] as const).map((method) =>
      jest.spyOn(console, method).mockImplementation(() => undefined),
    );
    let failure: unknown;
    try {
      // PostgreSQL refuses a NUL in text (SQLSTATE 22021), after the parameters reached it.
      failure = await testApp.app
        .get(DataSource)
        .query('UPDATE "tasks" SET "name" = $1 WHERE "id" = $2', [`${hidden}\u0000`, task.id])
        .catch((error: unknown) => error);
    } finally {
      for (const spy of consoleCalls) spy.mockRestore();
    }
    expect(failure).toBeInstanceOf(QueryFailedError);
    // As the error filter logs an unexpected error.
    testApp.app.get<Logger>(ROOT_LOGGER).error({ err: failure }, 'Unhandled error');
    expect(parsed()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'warn',
          context: 'Database',
          code: '22021',
          statement: 'UPDATE "tasks"',
          msg: 'Statement failed',
        }),
        expect.objectContaining({
          err: expect.objectContaining({
            type: 'QueryFailedError',
            code: '22021',
            statement: 'UPDATE "tasks"',
            message: 'UPDATE "tasks" failed',
          }) as unknown,
        }),
      ]),
    );
    expect(lines.join('\n')).not.toContain(hidden);
    const printed = consoleCalls.flatMap((spy) => spy.mock.calls.flat().map(String));
    expect(printed.join('\n')).not.toContain(hidden);
  });
});
