import { createServer, type AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { expectDetail, expectServerError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  answerByQuery,
  createTask,
  sendRows,
  waitForFinalDeliveries,
} from '../notifications/notification-test-helpers';

/** What the database says in the failures below: none of it may reach a client. */
const INTERNAL_TEXT = 'relation internal_audit at db-primary.internal:5432 refused the row';

/** A TCP port on 127.0.0.1 where nothing listens (bound once, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** No internal text in answers (docs/api.md, "Errors"): database errors on a request path. */
describe('Internal text: database errors in 500 answers', () => {
  let testApp: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    user = await new Factory(testApp).user();
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Makes every update of one task fail in PostgreSQL with `INTERNAL_TEXT`. */
  async function withFailingTaskUpdates<T>(taskId: string, work: () => Promise<T>): Promise<T> {
    await testApp.db.query(`
      CREATE OR REPLACE FUNCTION test_refuse_task_update() RETURNS trigger AS $$
      BEGIN
        IF OLD.id::text = TG_ARGV[0] THEN RAISE EXCEPTION '${INTERNAL_TEXT}'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await testApp.db.query(
      `CREATE TRIGGER test_refuse_task_update BEFORE UPDATE ON tasks
       FOR EACH ROW EXECUTE FUNCTION test_refuse_task_update('${taskId}')`,
    );
    try {
      return await work();
    } finally {
      await testApp.db.query('DROP TRIGGER IF EXISTS test_refuse_task_update ON tasks');
      await testApp.db.query('DROP FUNCTION IF EXISTS test_refuse_task_update()');
    }
  }

  function put(id: string, body: Record<string, unknown>) {
    return testApp.http.put(`/api/v1/tasks/${id}`).set('Authorization', user.auth).send(body);
  }

  it('should answer a failed state change with the fixed reason and the request id, without the database message', async () => {
    const task = await new Factory(testApp).task(user, { state: 'paused' });
    const response = await withFailingTaskUpdates(task.id, () =>
      put(task.id, { state: 'active' }).set('X-Request-Id', 'req-state-change-1'),
    );
    expectServerError(
      response,
      'Failed to change task state: database error. Task update rolled back.',
    );
    expect(response.body.request_id).toBe('req-state-change-1');
    expect(JSON.stringify(response.body)).not.toMatch(/internal_audit|5432|db-primary/);
  });

  it('should answer any other database failure with a generic 500 and the request id', async () => {
    const task = await new Factory(testApp).task(user, { state: 'paused' });
    const response = await withFailingTaskUpdates(task.id, () => put(task.id, { name: 'renamed' }));
    expectServerError(response, 'Internal server error');
    expect(JSON.stringify(response.body)).not.toMatch(/internal_audit|5432|db-primary/);
  });
});

/** Send records say `SMTP error: <class>`; the server's words stay in the log (docs/api.md). */
describe('Internal text: SMTP failures in send records and answers', () => {
  let gemini: GeminiStandIn;
  let smtp: SmtpTestServer;
  let refusing: TestApp;
  let unreachable: TestApp;
  let deadPort: number;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    answerByQuery(gemini);
    smtp = await new SmtpTestServer().start();
    deadPort = await closedPort();
    refusing = await startTestApp({
      gemini,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Monitor <alerts@monitor.test>' },
    });
    unreachable = await startTestApp({
      gemini,
      env: {
        SMTP_URL: `smtp://127.0.0.1:${deadPort}`,
        MAIL_FROM: 'Monitor <alerts@monitor.test>',
        WEBHOOK_RETRY_SCHEDULE: '100ms,100ms',
      },
    });
  });

  afterAll(async () => {
    await unreachable.close();
    await refusing.close();
    await smtp.stop();
    await gemini.stop();
  });

  it("should record 'SMTP error: rejected (550)' when the server refuses the message", async () => {
    smtp.rejectNext({ code: 550, message: 'mailbox of relay mx7.internal:2525 unavailable' });
    const user = await new Factory(refusing).user();
    const task = await createTask(refusing, user, {
      notifications: [{ type: 'email', address: `to-${randomUUID()}@example.com` }],
    });
    await waitForFinalDeliveries(refusing, task.id, 1);
    const [send] = await sendRows(refusing, task.id);
    expect(send).toMatchObject({ status: 'failed', error_message: 'SMTP error: rejected (550)' });
  });

  it("should record 'SMTP error: connection failed' without the host or port when no server answers", async () => {
    const user = await new Factory(unreachable).user();
    const task = await createTask(unreachable, user, {
      notifications: [{ type: 'email', address: `to-${randomUUID()}@example.com` }],
    });
    await waitForFinalDeliveries(unreachable, task.id, 1);
    const sends = await sendRows(unreachable, task.id);
    expect(sends.length).toBeGreaterThan(0);
    for (const send of sends) {
      expect(send).toMatchObject({
        status: 'failed',
        error_message: 'SMTP error: connection failed',
      });
    }
  });

  it('should answer 503 for a verification code without the SMTP host or port', async () => {
    const user = await new Factory(unreachable).user();
    const response = await unreachable.http
      .post('/api/v1/email-verifications')
      .set('Authorization', user.auth)
      .send({ email: `other-${randomUUID()}@example.com` });
    expectDetail(
      response,
      503,
      'The verification email could not be sent: SMTP error: connection failed',
    );
    expect(JSON.stringify(response.body)).not.toContain(String(deadPort));
  });
});
