import { randomUUID } from 'node:crypto';
import type { TaskBody } from './api-bodies';
import type { TestApp } from './test-app';

export interface TestUser {
  id: string;
  subject: string;
  email: string;
  jwt: string;
  apiKey: string;
  apiKeyId: string;
  /** `Authorization` header value using the API key */
  auth: string;
}

export interface ExecutionFields {
  status?: string;
  conditionMet?: boolean | null;
  answer?: string | null;
  reasoning?: string | null;
  errorMessage?: string | null;
  result?: Record<string, unknown> | null;
  groundingSources?: Array<{ uri: string; title: string }> | null;
  createdAt?: Date;
  /** Make it the task's last execution. */
  last?: boolean;
}

export interface SendFields {
  status?: string;
  recipient?: string;
  notificationType?: string;
  createdAt?: Date;
}

const IN_FLIGHT = ['pending', 'running', 'retrying'];

/**
 * Small builders for test data. Users and tasks are made through the real API; executions and
 * sends, which only the check flow makes, are arranged in the database (that flow has its own specs).
 */
export class Factory {
  constructor(private readonly testApp: TestApp) {}

  /** A user signed in through the identity provider, with one API key. */
  async user(
    options: { email?: string; admin?: boolean; emailVerified?: boolean } = {},
  ): Promise<TestUser> {
    const subject = `user_${randomUUID()}`;
    const email = options.email ?? `${subject}@example.com`;
    const jwt = await this.testApp.jwks.mint(subject, {
      email,
      emailVerified: options.emailVerified,
      claims: options.admin ? { role: 'admin' } : undefined,
    });
    const synced = await this.testApp.http
      .post('/auth/sync-user')
      .set('Authorization', `Bearer ${jwt}`)
      .expect(200);
    const created = await this.testApp.http
      .post('/auth/api-keys')
      .set('Authorization', `Bearer ${jwt}`)
      .send({ name: 'test key' })
      .expect(200);
    const body = created.body as { key: string; id: string };
    return {
      id: (synced.body as { id: string }).id,
      subject,
      email,
      jwt,
      apiKey: body.key,
      apiKeyId: body.id,
      auth: `Bearer ${body.key}`,
    };
  }

  /** A task of `user`; paused unless `overrides` say otherwise, so no check runs meanwhile. */
  async task(user: TestUser, overrides: Record<string, unknown> = {}): Promise<TaskBody> {
    const response = await this.testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .send({ search_query: 'Is the new release out yet?', state: 'paused', ...overrides });
    if (response.status !== 200)
      throw new Error(`create task: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as TaskBody;
  }

  /** An execution of `task`, a successful finished one unless `overrides` say otherwise. */
  async execution(task: { id: string }, overrides: ExecutionFields = {}): Promise<string> {
    const id = randomUUID();
    const createdAt = overrides.createdAt ?? new Date();
    const status = overrides.status ?? 'success';
    await this.testApp.db.query(
      `INSERT INTO executions (id, task_id, status, trigger, started_at, completed_at, result, error_message,
         notification, grounding_sources, condition_met, answer, reasoning, created_at)
       VALUES ($1, $2, $3, 'scheduled', $4, $5, $6, $7, $8, $9, $10, $11, $12, $4)`,
      [
        id,
        task.id,
        status,
        createdAt,
        IN_FLIGHT.includes(status) ? null : new Date(createdAt.getTime() + 1000),
        overrides.result === undefined
          ? { condition_met: overrides.conditionMet ?? null }
          : overrides.result,
        overrides.errorMessage ?? null,
        status === 'success' ? { notify: false, reason: 'condition_not_met', channels: [] } : null,
        overrides.groundingSources === undefined
          ? null
          : JSON.stringify(overrides.groundingSources),
        overrides.conditionMet ?? null,
        overrides.answer ?? null,
        overrides.reasoning ?? null,
      ],
    );
    if (overrides.last)
      await this.testApp.db.query('UPDATE tasks SET last_execution_id = $2 WHERE id = $1', [
        task.id,
        id,
      ]);
    return id;
  }

  /** A send record of an execution of `task`, a delivered email unless `overrides` say otherwise. */
  async send(
    user: { id: string },
    task: { id: string },
    executionId: string,
    overrides: SendFields = {},
  ): Promise<string> {
    const { rows } = await this.testApp.db.query<{ id: string }>(
      `INSERT INTO notification_sends (user_id, task_id, execution_id, recipient, notification_type, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        user.id,
        task.id,
        executionId,
        overrides.recipient ?? 'x@example.com',
        overrides.notificationType ?? 'email',
        overrides.status ?? 'success',
        overrides.createdAt ?? new Date(),
      ],
    );
    return rows[0].id;
  }

  /** A delivery of an execution of `task` through email, in `state` (`delivered` unless said). */
  async delivery(task: { id: string }, executionId: string, state = 'delivered'): Promise<string> {
    const id = randomUUID();
    await this.testApp.db.query(
      `INSERT INTO notification_deliveries (id, execution_id, task_id, channel, attempt, state, job_id)
       VALUES ($1, $2, $3, 'email', 1, $4, $1)`,
      [id, executionId, task.id, state],
    );
    return id;
  }
}
