import { randomBytes, randomUUID } from 'node:crypto';
import type { TestUser } from '../support/factory';
import type { TestApp } from '../support/test-app';

/** Helpers shared by the sharing, public and admin specs. */

export interface TaskBody {
  id: string;
  name: string;
  state: string;
  is_public: boolean;
  [field: string]: unknown;
}

/** A valid username nobody else has. */
export function uniqueUsername(prefix = 'u'): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

export async function setUsername(
  testApp: TestApp,
  user: TestUser,
  username = uniqueUsername(),
): Promise<string> {
  await testApp.http
    .patch('/api/v1/users/me/username')
    .set('Authorization', user.auth)
    .send({ username })
    .expect(200);
  return username;
}

/** Creates a task through the API; paused unless asked otherwise, so no check runs meanwhile. */
export async function createTask(
  testApp: TestApp,
  user: TestUser,
  body: Record<string, unknown> = {},
): Promise<TaskBody> {
  const response = await testApp.http
    .post('/api/v1/tasks')
    .set('Authorization', user.auth)
    .send({ search_query: 'Is the new release out yet?', state: 'paused', ...body });
  if (response.status !== 200)
    throw new Error(`create task: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as TaskBody;
}

/** The owner's private data a public view must never show. */
export interface OwnerSecrets {
  email: string;
  webhookUrl: string;
  headerName: string;
  headerValue: string;
}

export function ownerSecrets(): OwnerSecrets {
  const tag = randomBytes(4).toString('hex');
  return {
    email: `owner-${tag}@private.example.org`,
    webhookUrl: `http://127.0.0.1:9/hooks/owner-${tag}`,
    headerName: `X-Owner-Token-${tag}`,
    headerValue: `owner-header-secret-${tag}`,
  };
}

/** A public task of `owner` (who gets a username) with email and webhook notifications. */
export async function createPublicTask(
  testApp: TestApp,
  owner: TestUser,
  options: { secrets?: OwnerSecrets; body?: Record<string, unknown> } = {},
): Promise<TaskBody> {
  const secrets = options.secrets ?? ownerSecrets();
  const current = await testApp.db.query<{ username: string | null }>(
    'SELECT username FROM users WHERE id = $1',
    [owner.id],
  );
  if (!current.rows[0]?.username) await setUsername(testApp, owner);
  const task = await createTask(testApp, owner, {
    notifications: [
      { type: 'email', address: secrets.email },
      {
        type: 'webhook',
        url: secrets.webhookUrl,
        headers: { [secrets.headerName]: secrets.headerValue },
      },
    ],
    ...options.body,
  });
  await testApp.http
    .patch(`/api/v1/tasks/${task.id}/visibility`)
    .set('Authorization', owner.auth)
    .send({ is_public: true })
    .expect(200);
  return { ...task, is_public: true };
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

/** Arranges a finished execution directly in the database (the check flow has its own specs). */
export async function insertExecution(
  testApp: TestApp,
  taskId: string,
  fields: ExecutionFields = {},
): Promise<string> {
  const id = randomUUID();
  const createdAt = fields.createdAt ?? new Date();
  const status = fields.status ?? 'success';
  await testApp.db.query(
    `INSERT INTO executions (id, task_id, status, trigger, started_at, completed_at, result, error_message,
       notification, grounding_sources, condition_met, answer, reasoning, created_at)
     VALUES ($1, $2, $3, 'scheduled', $4, $5, $6, $7, $8, $9, $10, $11, $12, $4)`,
    [
      id,
      taskId,
      status,
      createdAt,
      ['pending', 'running', 'retrying'].includes(status)
        ? null
        : new Date(createdAt.getTime() + 1000),
      fields.result === undefined ? { condition_met: fields.conditionMet ?? null } : fields.result,
      fields.errorMessage ?? null,
      status === 'success' ? { notify: false, reason: 'condition_not_met', channels: [] } : null,
      fields.groundingSources === undefined ? null : JSON.stringify(fields.groundingSources),
      fields.conditionMet ?? null,
      fields.answer ?? null,
      fields.reasoning ?? null,
    ],
  );
  if (fields.last)
    await testApp.db.query('UPDATE tasks SET last_execution_id = $2 WHERE id = $1', [taskId, id]);
  return id;
}

/** A client address of its own, sent as X-Forwarded-For to an app running with TRUST_PROXY=1. */
export function clientIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

/**
 * Per-IP limits use fixed one-minute windows: a burst started in the last seconds of a minute
 * would straddle two windows. Waits for the next minute when that is the case.
 */
export async function startOfFreshWindow(marginMs = 8_000): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 60_000 - marginMs) {
    await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
  }
}
