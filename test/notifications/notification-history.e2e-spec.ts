import { randomUUID } from 'node:crypto';
import { expectDetail, expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';

interface SendBody {
  id: string;
  user_id: string;
  task_id: string;
  execution_id: string;
  recipient: string;
  notification_type: string;
  status: string;
  error_message: string | null;
  created_at: string;
}

/**
 * The read side: `GET /api/v1/notifications/sends` and `GET /api/v1/tasks/{task_id}/notifications`.
 * History rows are arranged directly in the database (the delivery flow has its own specs).
 */
describe('Notification history', () => {
  let testApp: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let aliceTask: string;
  let aliceOtherTask: string;
  let bobTask: string;
  const base = Date.parse('2026-01-01T00:00:00Z');

  async function task(owner: TestUser, name: string): Promise<string> {
    const response = await testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', owner.auth)
      .send({ name, search_query: `history query for ${name}`, state: 'paused' })
      .expect(200);
    return (response.body as { id: string }).id;
  }

  async function execution(
    taskId: string,
    minute: number,
    conditionMet: boolean | null,
  ): Promise<string> {
    const { rows } = await testApp.db.query<{ id: string }>(
      `INSERT INTO executions (task_id, status, trigger, started_at, completed_at, created_at,
         condition_met, answer, reasoning, grounding_sources, result)
       VALUES ($1, $2, 'scheduled', $3, $3, $3, $4, $5, $6, $7::jsonb, '{}'::jsonb) RETURNING id`,
      [
        taskId,
        conditionMet === null ? 'failed' : 'success',
        new Date(base + minute * 60_000),
        conditionMet,
        `answer ${minute}`,
        `reasoning ${minute}`,
        JSON.stringify([{ uri: `https://example.com/${minute}`, title: `Source ${minute}` }]),
      ],
    );
    return rows[0].id;
  }

  async function send(
    owner: TestUser,
    taskId: string,
    executionId: string,
    minute: number,
    type: 'email' | 'webhook',
    status: 'success' | 'failed',
  ): Promise<void> {
    await testApp.db.query(
      `INSERT INTO notification_sends (user_id, task_id, execution_id, recipient,
         notification_type, status, error_message, attempt, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8)`,
      [
        owner.id,
        taskId,
        executionId,
        type === 'email' ? 'a@example.com' : 'https://hooks.example.com/x',
        type,
        status,
        status === 'failed' ? 'HTTP 500' : null,
        new Date(base + minute * 60_000),
      ],
    );
  }

  beforeAll(async () => {
    testApp = await startTestApp();
    const factory = new Factory(testApp);
    alice = await factory.user();
    bob = await factory.user();
    aliceTask = await task(alice, 'Alice watch');
    aliceOtherTask = await task(alice, 'Alice other');
    bobTask = await task(bob, 'Bob watch');

    // Alice: 5 executions on aliceTask (minutes 1..5, met except minute 3), 1 on the other task.
    for (let minute = 1; minute <= 5; minute++) {
      const id = await execution(aliceTask, minute, minute !== 3);
      await send(alice, aliceTask, id, minute, 'email', 'success');
      await send(
        alice,
        aliceTask,
        id,
        minute + 0.5,
        'webhook',
        minute === 2 ? 'failed' : 'success',
      );
    }
    await execution(aliceTask, 6, null);
    const other = await execution(aliceOtherTask, 10, true);
    await send(alice, aliceOtherTask, other, 10, 'webhook', 'success');
    const bobs = await execution(bobTask, 20, true);
    await send(bob, bobTask, bobs, 20, 'email', 'success');
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('GET /api/v1/notifications/sends', () => {
    it('should list only the caller’s sends, newest first, with the total', async () => {
      const response = await testApp.http
        .get('/api/v1/notifications/sends')
        .set('Authorization', alice.auth)
        .expect(200);
      const body = response.body as { sends: SendBody[]; total: number };
      expect(body.total).toBe(11);
      expect(body.sends).toHaveLength(11);
      expect(body.sends.every((item) => item.user_id === alice.id)).toBe(true);
      const times = body.sends.map((item) => Date.parse(item.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(Object.keys(body.sends[0]).sort()).toEqual(
        [
          'created_at',
          'error_message',
          'event',
          'execution_id',
          'id',
          'notification_type',
          'recipient',
          'status',
          'task_id',
          'user_id',
        ].sort(),
      );
      expect(body.sends[0]).toMatchObject({
        task_id: aliceOtherTask,
        notification_type: 'webhook',
        status: 'success',
        error_message: null,
        created_at: new Date(base + 10 * 60_000).toISOString(),
      });
      const failed = body.sends.find((item) => item.status === 'failed');
      expect(failed).toMatchObject({ error_message: 'HTTP 500', notification_type: 'webhook' });

      const bobs = await testApp.http
        .get('/api/v1/notifications/sends')
        .set('Authorization', bob.auth)
        .expect(200);
      expect(bobs.body.total).toBe(1);
      expect(bobs.body.sends[0].task_id).toBe(bobTask);
    });

    it('should page with limit and offset and keep the total', async () => {
      const first = await testApp.http
        .get('/api/v1/notifications/sends?limit=4&offset=0')
        .set('Authorization', alice.auth)
        .expect(200);
      const second = await testApp.http
        .get('/api/v1/notifications/sends?limit=4&offset=4')
        .set('Authorization', alice.auth)
        .expect(200);
      const last = await testApp.http
        .get('/api/v1/notifications/sends?limit=4&offset=8')
        .set('Authorization', alice.auth)
        .expect(200);
      expect([first.body.total, second.body.total, last.body.total]).toEqual([11, 11, 11]);
      expect([first.body.sends.length, second.body.sends.length, last.body.sends.length]).toEqual([
        4, 4, 3,
      ]);
      const ids = [...first.body.sends, ...second.body.sends, ...last.body.sends].map(
        (item: SendBody) => item.id,
      );
      expect(new Set(ids).size).toBe(11);
      const beyond = await testApp.http
        .get('/api/v1/notifications/sends?offset=50')
        .set('Authorization', alice.auth)
        .expect(200);
      expect(beyond.body).toEqual({ sends: [], total: 11 });
    });

    it('should filter by notification type and by task', async () => {
      const emails = await testApp.http
        .get('/api/v1/notifications/sends?notification_type=email')
        .set('Authorization', alice.auth)
        .expect(200);
      expect(emails.body.total).toBe(5);
      const emailSends = emails.body.sends as SendBody[];
      expect(emailSends.every((item) => item.notification_type === 'email')).toBe(true);
      const byTask = await testApp.http
        .get(`/api/v1/notifications/sends?task_id=${aliceOtherTask}`)
        .set('Authorization', alice.auth)
        .expect(200);
      expect(byTask.body.total).toBe(1);
      const both = await testApp.http
        .get(`/api/v1/notifications/sends?task_id=${aliceTask}&notification_type=webhook&limit=2`)
        .set('Authorization', alice.auth)
        .expect(200);
      expect(both.body.total).toBe(5);
      expect(both.body.sends).toHaveLength(2);
      // Another user's task id filters to nothing rather than revealing anything.
      const foreign = await testApp.http
        .get(`/api/v1/notifications/sends?task_id=${bobTask}`)
        .set('Authorization', alice.auth)
        .expect(200);
      expect(foreign.body).toEqual({ sends: [], total: 0 });
    });

    it('should reject bad query values with 422', async () => {
      const cases: Array<[string, string, string]> = [
        ['notification_type=sms', 'notification_type', 'enum'],
        ['task_id=not-a-uuid', 'task_id', 'uuid_parsing'],
        ['limit=0', 'limit', 'greater_than_equal'],
        ['limit=201', 'limit', 'less_than_equal'],
        ['limit=abc', 'limit', 'int_parsing'],
        ['offset=-1', 'offset', 'greater_than_equal'],
      ];
      for (const [query, field, type] of cases) {
        const response = await testApp.http
          .get(`/api/v1/notifications/sends?${query}`)
          .set('Authorization', alice.auth);
        expectValidationError(response, [{ type, loc: ['query', field] }]);
      }
      const max = await testApp.http
        .get('/api/v1/notifications/sends?limit=200')
        .set('Authorization', alice.auth);
      expect(max.status).toBe(200);
    });

    it('should require authentication', async () => {
      const response = await testApp.http.get('/api/v1/notifications/sends');
      expectDetail(response, 401, 'Authorization header missing');
    });

    it('should not have GET /api/v1/notifications', async () => {
      const response = await testApp.http
        .get('/api/v1/notifications')
        .set('Authorization', alice.auth);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: expect.any(String) });
    });
  });

  describe('GET /api/v1/tasks/{task_id}/notifications', () => {
    it('should list the met-condition executions, newest first', async () => {
      const response = await testApp.http
        .get(`/api/v1/tasks/${aliceTask}/notifications`)
        .set('Authorization', alice.auth)
        .expect(200);
      expect(Array.isArray(response.body)).toBe(true);
      expect((response.body as Array<{ answer: string }>).map((item) => item.answer)).toEqual([
        'answer 5',
        'answer 4',
        'answer 2',
        'answer 1',
      ]);
      const { rows } = await testApp.db.query<{ id: string }>(
        `SELECT id FROM executions WHERE task_id = $1 AND answer = 'answer 5'`,
        [aliceTask],
      );
      expect(response.body[0]).toEqual({
        id: rows[0].id,
        task_id: aliceTask,
        task_name: 'Alice watch',
        status: 'success',
        condition_met: true,
        answer: 'answer 5',
        reasoning: 'reasoning 5',
        grounding_sources: [{ uri: 'https://example.com/5', title: 'Source 5' }],
        created_at: new Date(base + 5 * 60_000).toISOString(),
      });
    });

    it('should page with limit and offset', async () => {
      const response = await testApp.http
        .get(`/api/v1/tasks/${aliceTask}/notifications?limit=2&offset=1`)
        .set('Authorization', alice.auth)
        .expect(200);
      expect((response.body as Array<{ answer: string }>).map((item) => item.answer)).toEqual([
        'answer 4',
        'answer 2',
      ]);
      const invalid = await testApp.http
        .get(`/api/v1/tasks/${aliceTask}/notifications?limit=500`)
        .set('Authorization', alice.auth);
      expectValidationError(invalid, [{ type: 'less_than_equal', loc: ['query', 'limit'] }]);
    });

    it('should answer an empty array for a task without met conditions', async () => {
      const empty = await task(alice, 'Alice quiet');
      const response = await testApp.http
        .get(`/api/v1/tasks/${empty}/notifications`)
        .set('Authorization', alice.auth)
        .expect(200);
      expect(response.body).toEqual([]);
    });

    it('should answer 404 for an unknown task and for someone else’s private task', async () => {
      const unknown = await testApp.http
        .get(`/api/v1/tasks/${randomUUID()}/notifications`)
        .set('Authorization', alice.auth);
      expectDetail(unknown, 404, 'Task not found');
      const foreign = await testApp.http
        .get(`/api/v1/tasks/${bobTask}/notifications`)
        .set('Authorization', alice.auth);
      expectDetail(foreign, 404, 'Task not found');
      const anonymous = await testApp.http.get(`/api/v1/tasks/${bobTask}/notifications`);
      expectDetail(anonymous, 404, 'Task not found');
    });

    it('should let anyone read the notifications of a public task', async () => {
      await testApp.db.query('UPDATE tasks SET is_public = true WHERE id = $1', [bobTask]);
      try {
        for (const request of [
          testApp.http
            .get(`/api/v1/tasks/${bobTask}/notifications`)
            .set('Authorization', alice.auth),
          testApp.http.get(`/api/v1/tasks/${bobTask}/notifications`),
        ]) {
          const response = await request;
          expect(response.status).toBe(200);
          expect(response.body).toHaveLength(1);
          expect(response.body[0]).toMatchObject({ task_id: bobTask, task_name: 'Bob watch' });
        }
      } finally {
        await testApp.db.query('UPDATE tasks SET is_public = false WHERE id = $1', [bobTask]);
      }
    });

    it('should answer 422 for a task id that is not a UUID', async () => {
      const response = await testApp.http
        .get('/api/v1/tasks/not-a-uuid/notifications')
        .set('Authorization', alice.auth);
      expectValidationError(response, [{ type: 'uuid_parsing', loc: ['path', 'task_id'] }]);
    });
  });
});
