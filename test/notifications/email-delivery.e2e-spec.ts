import { randomUUID } from 'node:crypto';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  answerByQuery,
  createTask,
  MET_ANSWER,
  MET_REASONING,
  MET_SOURCES,
  rerunJob,
  sendRows,
  waitForSettledDeliveries,
  waitForFinalDeliveries,
  waitForSends,
} from './notification-test-helpers';

describe('Email notifications', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let smtp: SmtpTestServer;
  let user: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    smtp = await new SmtpTestServer().start();
    testApp = await startTestApp({
      gemini,
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Monitor Alerts <alerts@monitor.test>',
        WEBHOOK_RETRY_SCHEDULE: '200ms,200ms',
      },
    });
    user = await new Factory(testApp).user();
    answerByQuery(gemini);
  });

  afterAll(async () => {
    await testApp.close();
    await smtp.stop();
    await gemini.stop();
  });

  function address(): string {
    return `watcher-${randomUUID()}@example.com`;
  }

  it('should email the answer, the reasoning, the sources and the time of the check', async () => {
    const to = address();
    const task = await createTask(testApp, user, {
      name: 'Release <watch> & "more"',
      notifications: [{ type: 'email', address: to }],
    });
    const [send] = await waitForSends(testApp, task.id, 1);
    const [message] = smtp.messagesTo(to);
    const { rows } = await testApp.db.query<{ id: string; completed_at: Date }>(
      'SELECT id, completed_at FROM executions WHERE task_id = $1',
      [task.id],
    );

    expect(message.subject).toBe('[Monitor] Release <watch> & "more": condition met');
    expect(message.from).toBe('alerts@monitor.test');
    expect(message.parsed.from?.text).toBe('"Monitor Alerts" <alerts@monitor.test>');
    expect(message.parsed.to).toMatchObject({ text: to });
    expect(message.messageId).toMatch(/^<[0-9a-f-]{36}@monitor\.test>$/);

    const checkedAt = `${rows[0].completed_at.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
    for (const part of [MET_ANSWER, 'The vendor blog announces the release.', checkedAt]) {
      expect(message.text).toContain(part);
    }
    for (const source of MET_SOURCES) {
      expect(message.text).toContain(source.uri);
      expect(message.text).toContain(source.title);
    }

    // Everything from the user or the model is escaped in the HTML part.
    expect(message.html).toContain('Release &lt;watch&gt; &amp; &quot;more&quot;: condition met');
    expect(message.html).toContain(
      'Version 2.0 shipped &lt;today&gt; &amp; &quot;everyone&quot; is happy',
    );
    expect(message.html).toContain('The vendor blog announces the release.<br>Second line');
    expect(message.html).toContain(
      '<a href="https://example.com/blog/release?a=1&amp;b=2">Release &lt;notes&gt;</a>',
    );
    expect(message.html).toContain(checkedAt);
    expect(message.html).not.toContain('<today>');
    expect(message.html).not.toContain('<watch>');

    expect(send).toMatchObject({
      user_id: user.id,
      task_id: task.id,
      execution_id: rows[0].id,
      recipient: to,
      notification_type: 'email',
      status: 'success',
      error_message: null,
      attempt: 1,
    });
    expect(MET_REASONING).toContain('\n');
  });

  it('should send one email per execution and address even when its job runs again', async () => {
    const to = address();
    const task = await createTask(testApp, user, {
      notifications: [{ type: 'email', address: to }],
    });
    const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1);
    await rerunJob(testApp, delivery.job_id);
    expect(smtp.messagesTo(to)).toHaveLength(1);
    expect(await sendRows(testApp, task.id)).toHaveLength(1);
  });

  it('should send an email again, with the same Message-ID, when the run sending it died before recording it', async () => {
    const to = address();
    const task = await createTask(testApp, user, {
      notifications: [{ type: 'email', address: to }],
    });
    const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1);
    const [first] = smtp.messagesTo(to);
    expect(first.messageId).toBe(`<${delivery.id}@monitor.test>`);
    // The state a crash leaves: the attempt was claimed by a worker that is gone (the email may
    // or may not have gone out), nothing recorded, and the queue runs the job again.
    await testApp.db.query('DELETE FROM notification_sends WHERE task_id = $1', [task.id]);
    await testApp.db.query(
      `UPDATE notification_deliveries SET state = 'sending', worker_id = $2 WHERE id = $1`,
      [delivery.id, randomUUID()],
    );
    await rerunJob(testApp, delivery.job_id);
    const sends = await sendRows(testApp, task.id);
    expect(sends).toEqual([
      expect.objectContaining({
        status: 'success',
        attempt: 1,
        recipient: to,
        error_message: null,
      }),
    ]);
    const [settled] = await waitForFinalDeliveries(testApp, task.id, 1);
    expect(settled).toMatchObject({ state: 'delivered', attempt: 1 });
    const messages = smtp.messagesTo(to);
    expect(messages).toHaveLength(2);
    expect(messages[1].messageId).toBe(first.messageId);
  });

  it('should retry a temporary SMTP rejection and deliver once', async () => {
    const to = address();
    smtp.rejectNext({ code: 451, message: 'Try again later' });
    const task = await createTask(testApp, user, {
      notifications: [{ type: 'email', address: to }],
    });
    const sends = await waitForSends(testApp, task.id, 2);
    expect(sends.map((send) => [send.attempt, send.status])).toEqual([
      [1, 'failed'],
      [2, 'success'],
    ]);
    expect(sends[0].error_message).toMatch(/^SMTP error: .*451/);
    expect(smtp.messagesTo(to)).toHaveLength(1);
  });

  it('should not retry a permanent SMTP rejection', async () => {
    const to = address();
    smtp.rejectNext({ code: 550, message: 'Mailbox unavailable' });
    const task = await createTask(testApp, user, {
      notifications: [{ type: 'email', address: to }],
    });
    await waitForFinalDeliveries(testApp, task.id, 1);
    await waitForSettledDeliveries(testApp, task.id);
    const sends = await sendRows(testApp, task.id);
    expect(sends).toHaveLength(1);
    expect(sends[0].status).toBe('failed');
    expect(sends[0].error_message).toMatch(/^SMTP error: .*550/);
    expect(smtp.messagesTo(to)).toHaveLength(0);
  });

  it('should send a burst of emails once each', async () => {
    const addresses = Array.from({ length: 12 }, () => address());
    const tasks = await Promise.all(
      addresses.map((to) =>
        createTask(testApp, user, { notifications: [{ type: 'email', address: to }] }),
      ),
    );
    await Promise.all(tasks.map((task) => waitForFinalDeliveries(testApp, task.id, 1)));
    for (const to of addresses) expect(smtp.messagesTo(to)).toHaveLength(1);
    const messageIds = addresses.map((to) => smtp.messagesTo(to)[0].messageId);
    expect(new Set(messageIds).size).toBe(addresses.length);
  });

  it('should notify through email and webhook independently', async () => {
    const to = address();
    const task = await createTask(testApp, user, {
      notifications: [
        { type: 'email', address: to },
        // Nothing listens there: the webhook fails, the email is not affected.
        { type: 'webhook', url: 'http://127.0.0.1:9/closed' },
      ],
    });
    const deliveries = await waitForFinalDeliveries(testApp, task.id, 2);
    expect(deliveries.map((delivery) => [delivery.channel, delivery.state])).toEqual([
      ['email', 'delivered'],
      ['webhook', 'failed'],
    ]);
    const sends = await sendRows(testApp, task.id);
    expect(sends.filter((send) => send.notification_type === 'email')).toHaveLength(1);
    expect(sends.filter((send) => send.notification_type === 'webhook')).toHaveLength(3);
    expect(smtp.messagesTo(to)).toHaveLength(1);
  });
});

describe('Email notifications without SMTP_URL', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let user: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    testApp = await startTestApp({ gemini });
    user = await new Factory(testApp).user();
    answerByQuery(gemini);
  });

  afterAll(async () => {
    await testApp.close();
    await gemini.stop();
  });

  it('should record the attempt as failed with a clear error and not retry', async () => {
    const task = await createTask(testApp, user, {
      notifications: [{ type: 'email', address: 'someone@example.com' }],
    });
    const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1);
    expect(delivery.state).toBe('failed');
    const sends = await sendRows(testApp, task.id);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({
      status: 'failed',
      error_message: 'SMTP is not configured (set SMTP_URL)',
      recipient: 'someone@example.com',
    });
  });
});
