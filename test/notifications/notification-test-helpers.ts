import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { deliveryJobId } from '../../src/notifications/delivery/delivery-job';
import type { NotificationType } from '../../src/notifications/channels/channel-registry';
import { FINAL_DELIVERY_STATES } from '../../src/notifications/delivery/notification-delivery.entity';
import { JobQueueService } from '../../src/scheduler/job-queue.service';
import { Factory, type TestUser } from '../support/factory';
import {
  checkReply,
  type GeminiStandIn,
  type RecordedGeminiRequest,
} from '../support/gemini-stand-in';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/** Marker in a search query that makes the Gemini stand-in answer "condition met". */
export const MET = 'condition-met-marker';

/** A token in the shape Telegram issues; the receiver stands in for the Bot API. */
export const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

export const MET_ANSWER = 'Version 2.0 shipped <today> & "everyone" is happy';
export const MET_REASONING = 'The vendor blog announces the release.\nSecond line of reasoning.';
export const MET_SOURCES = [
  { uri: 'https://example.com/blog/release?a=1&b=2', title: 'Release <notes>' },
  { uri: 'https://news.example.org/item/42', title: 'News item' },
];

/** Answers "met" for queries carrying the marker, "not met" otherwise (checks are per query). */
export function answerByQuery(gemini: GeminiStandIn): void {
  gemini.respondWith((request: RecordedGeminiRequest) =>
    checkReply({
      conditionMet: request.promptText.includes(MET),
      answer: request.promptText.includes(MET) ? MET_ANSWER : 'Nothing yet.',
      reasoning: MET_REASONING,
      currentState: { seen: randomUUID() },
      sources: MET_SOURCES,
    }),
  );
}

export interface SendRow {
  id: string;
  user_id: string;
  task_id: string;
  execution_id: string;
  recipient: string;
  notification_type: string;
  event: string;
  status: string;
  error_message: string | null;
  attempt: number;
  created_at: Date;
}

export interface CreatedTask {
  id: string;
  name: string;
  search_query: string;
  condition_description: string;
  notifications: Array<Record<string, unknown>>;
}

/** Creates an active task through the API; its first check runs at once. */
export async function createTask(
  testApp: TestApp,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<CreatedTask> {
  return new Factory(testApp).task(user, {
    search_query: `Has version 2.0 shipped? ${MET} ${randomUUID()}`,
    state: 'active',
    ...body,
  });
}

export async function sendRows(testApp: TestApp, taskId: string): Promise<SendRow[]> {
  const { rows } = await testApp.db.query<SendRow>(
    'SELECT * FROM notification_sends WHERE task_id = $1 ORDER BY attempt, created_at',
    [taskId],
  );
  return rows;
}

/** Waits until the task has at least `count` send records. */
export function waitForSends(
  testApp: TestApp,
  taskId: string,
  count: number,
  timeoutMs = 20_000,
): Promise<SendRow[]> {
  return waitFor(
    async () => {
      const rows = await sendRows(testApp, taskId);
      return rows.length >= count ? rows : undefined;
    },
    { timeoutMs, what: `${count} send record(s) for task ${taskId}` },
  );
}

export interface DeliveryRow {
  id: string;
  execution_id: string;
  channel: string;
  state: string;
  attempt: number;
  job_id: string;
  last_error: string | null;
}

/** Waits until every delivery of the task is final (delivered, failed, skipped or cancelled). */
export function waitForFinalDeliveries(
  testApp: TestApp,
  taskId: string,
  count: number,
  timeoutMs = 20_000,
): Promise<DeliveryRow[]> {
  return waitFor(
    async () => {
      const { rows } = await testApp.db.query<DeliveryRow>(
        'SELECT * FROM notification_deliveries WHERE task_id = $1 ORDER BY channel',
        [taskId],
      );
      const final = rows.filter((row) => (FINAL_DELIVERY_STATES as string[]).includes(row.state));
      return rows.length >= count && final.length === rows.length ? rows : undefined;
    },
    { timeoutMs, what: `${count} final deliveries for task ${taskId}` },
  );
}

/**
 * Simulates a redelivered job: puts a finished delivery job back into the queue as if the
 * process had died before pg-boss heard of its completion.
 */
export async function requeueJob(testApp: TestApp, jobId: string): Promise<void> {
  const { rowCount } = await testApp.db.query(
    `UPDATE pgboss.job SET state = 'created', completed_on = NULL, started_on = NULL,
       start_after = now() - interval '1 second'
     WHERE name = 'notification-delivery' AND id = $1`,
    [jobId],
  );
  if (rowCount !== 1) throw new Error(`job ${jobId} not found in pgboss.job`);
}

/** Runs a finished delivery job a second time and waits until the worker has completed it again. */
export async function rerunJob(testApp: TestApp, jobId: string): Promise<void> {
  await requeueJob(testApp, jobId);
  await waitFor(
    async () => {
      const { rows } = await testApp.db.query<{ state: string }>(
        'SELECT state FROM pgboss.job WHERE id = $1',
        [jobId],
      );
      return rows[0]?.state === 'completed';
    },
    { what: 'the repeated job to complete' },
  );
}

/** A paused task with these channels and one met-condition execution; returns both ids. */
export async function metExecution(
  testApp: TestApp,
  user: TestUser,
  notifications: Array<Record<string, unknown>>,
): Promise<{ taskId: string; executionId: string }> {
  const task = await createTask(testApp, user, { state: 'paused', notifications });
  const { rows } = await testApp.db.query<{ id: string }>(
    `INSERT INTO executions (task_id, status, trigger, completed_at, condition_met, answer,
       reasoning, grounding_sources, result)
     VALUES ($1, 'success', 'manual', now(), true, 'It happened', 'Because.', '[]'::jsonb,
       '{}'::jsonb) RETURNING id`,
    [task.id],
  );
  return { taskId: task.id, executionId: rows[0].id };
}

/** Queues delivery jobs the way the check runner queues them, due at `startAfter` (default now). */
export async function queueDeliveries(
  testApp: TestApp,
  executionId: string,
  taskId: string,
  channels: NotificationType[],
  startAfter?: Date,
): Promise<void> {
  const queue = testApp.app.get(JobQueueService);
  await testApp.app.get(DataSource).transaction((manager) =>
    queue.enqueueDeliveries(
      manager,
      channels.map((channel) => ({
        id: deliveryJobId(executionId, channel),
        data: { executionId, taskId, channel },
        startAfter,
      })),
    ),
  );
}

/**
 * Waits until no delivery job of the task is queued, due for a retry or running. Every attempt,
 * retries included, runs from such a job and a retry's job is written with the outcome before it,
 * so past this point nothing more is sent for the task and a test can count what was.
 */
export function waitForSettledDeliveries(testApp: TestApp, taskId: string): Promise<true> {
  return waitFor(
    async () => {
      const { rows } = await testApp.db.query(
        `SELECT 1 FROM pgboss.job WHERE name = 'notification-delivery'
           AND data ->> 'taskId' = $1 AND state IN ('created', 'retry', 'active')`,
        [taskId],
      );
      return rows.length === 0;
    },
    { what: `no live delivery job for task ${taskId}` },
  );
}
