import { randomInt } from 'node:crypto';
import type { Pool } from 'pg';
import { CHECK_QUEUE, QUEUE_SCHEMA } from '../../src/scheduler/job-queue.service';
import { type Factory, type TestUser } from './factory';
import { checkReply, type GeminiStandIn } from './gemini-stand-in';
import type { WebhookReceiver } from './webhook-receiver';

/**
 * Lock conflicts under load (docs/architecture.md, "One lock order"): several instances on one
 * database, clients mixing the writes that lock tasks (execute with and without force, update and
 * state changes, delete, fork, test sends, admin deactivations) while the scheduler claims due
 * checks, results commit and deliveries run. Shared by the e2e spec (short) and the benchmark
 * (long).
 */

/** What the instances need to be for the load to mean something: checks due every second or two. */
export const LOCK_LOAD_ENV = {
  RATE_LIMIT_PER_MINUTE: '10000000',
  RATE_LIMIT_PER_HOUR: '10000000',
  RATE_LIMIT_PER_DAY: '10000000',
  RATE_LIMIT_LLM_PER_HOUR: '10000000',
  RATE_LIMIT_TEST_SENDS_PER_HOUR: '10000000',
  // Deactivated users' requests keep failing authentication from this one address.
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '10000000',
  SCHEDULER_MIN_INTERVAL: '1s',
  WEBHOOK_RETRY_SCHEDULE: '1s,2s',
  MAX_ACTIVE_TASKS_PER_USER: '0',
  MAX_TASKS_PER_USER: '0',
};

/** An instance the load talks to. */
export interface LoadTarget {
  baseUrl: string;
}

export interface LockLoadOptions {
  targets: LoadTarget[];
  /** Makes users through the first instance (its identity provider signs their tokens). */
  factory: Factory;
  /** Direct access to the shared database, for the checks after the load. */
  db: Pool;
  gemini: GeminiStandIn;
  receiver: WebhookReceiver;
  durationMs: number;
  clients: number;
  users: number;
  tasksPerUser: number;
  /** An administrator deactivates one user about this often (and a new one signs up). */
  deactivateEveryMs: number;
}

export interface ServerError {
  operation: string;
  status: number;
  detail: string;
}

export interface LockLoadResult {
  requests: number;
  /** Answers by `operation status`. */
  statuses: Record<string, number>;
  serverErrors: ServerError[];
  deactivated: number;
  /** Executions still pending, running or retrying once the work drained (should be none). */
  inFlightAfterDrain: number;
  /** Milliseconds it took the in-flight executions to drain, or null when they never did. */
  drainMs: number | null;
  /** Tasks of deactivated users that are active or have a live check job (should be none). */
  deactivatedUsersQueuedTasks: number;
  /** Checks recorded as failed because their result could not be stored (should be none). */
  resultsLost: number;
  /** Deadlocks PostgreSQL counted in this database during the load. */
  deadlocks: number;
}

interface LiveUser {
  user: TestUser;
  tasks: string[];
  deactivated: boolean;
}

const IN_FLIGHT = ['pending', 'running', 'retrying'];

/** Runs the mixed load, lets the work drain, and reports what it saw. */
export async function runLockConflictLoad(options: LockLoadOptions): Promise<LockLoadResult> {
  const { factory, db, targets } = options;
  // Checks answer in 20-120 ms, met half the time (so deliveries go out), next check in a second.
  options.gemini.respondWith((request) =>
    request.kind === 'check'
      ? {
          delayMs: randomInt(20, 120),
          then: checkReply({
            conditionMet: Math.random() < 0.5,
            nextCheckAt: new Date(Date.now() + 1000),
          }),
        }
      : options.gemini.defaultReply(request),
  );
  // Receivers a little slow, so a test send is still out when a delete of its task commits.
  options.receiver.recordRequests = false;
  options.receiver.respondWith(() => ({ status: 200, body: 'ok', delayMs: randomInt(5, 60) }));

  const admin = await factory.user({ admin: true });
  const users: LiveUser[] = [];
  const signUp = async (): Promise<LiveUser> => {
    const user = await factory.user();
    const live: LiveUser = { user, tasks: [], deactivated: false };
    for (let index = 0; index < options.tasksPerUser; index++) {
      const task = await createTask(targets[0], user, options.receiver.url);
      if (task) live.tasks.push(task);
    }
    return live;
  };
  for (let index = 0; index < options.users; index++) users.push(await signUp());

  const [{ deadlocks: deadlocksBefore }] = (
    await db.query<{ deadlocks: string }>(
      'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
    )
  ).rows;

  const statuses: Record<string, number> = {};
  const serverErrors: ServerError[] = [];
  let requests = 0;
  const call = async (
    operation: string,
    method: string,
    path: string,
    user: TestUser,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> => {
    const target = targets[randomInt(targets.length)];
    let status: number;
    let parsed: unknown = null;
    try {
      const response = await fetch(`${target.baseUrl}${path}`, {
        method,
        headers: { authorization: user.auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      status = response.status;
      const text = await response.text();
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
    } catch (error) {
      status = 599;
      parsed = { detail: String(error) };
    }
    requests += 1;
    const key = `${operation} ${status}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
    if (status >= 500) {
      serverErrors.push({ operation, status, detail: JSON.stringify(parsed).slice(0, 300) });
    }
    return { status, body: parsed };
  };

  const pick = (): { live: LiveUser; taskId: string } | null => {
    const candidates = users.filter((live) => !live.deactivated && live.tasks.length > 0);
    if (candidates.length === 0) return null;
    const live = candidates[randomInt(candidates.length)];
    return { live, taskId: live.tasks[randomInt(live.tasks.length)] };
  };

  const operations: Array<(live: LiveUser, taskId: string) => Promise<unknown>> = [
    (live, taskId) =>
      call('execute', 'POST', `/api/v1/tasks/${taskId}/execute`, live.user, { force: false }),
    (live, taskId) =>
      call('execute force', 'POST', `/api/v1/tasks/${taskId}/execute?force=true`, live.user, {}),
    (live, taskId) =>
      call('update', 'PUT', `/api/v1/tasks/${taskId}`, live.user, {
        name: `renamed ${randomInt(1_000_000)}`,
      }),
    (live, taskId) =>
      call('state change', 'PUT', `/api/v1/tasks/${taskId}`, live.user, {
        state: Math.random() < 0.5 ? 'paused' : 'active',
      }),
    (live, taskId) =>
      call('fork', 'POST', `/api/v1/tasks/${taskId}/fork`, live.user, {
        name: `fork ${randomInt(1_000_000_000)}`,
      }),
    (live, taskId) =>
      call('test send', 'POST', `/api/v1/tasks/${taskId}/notifications/test`, live.user, {}),
    // A delete racing a test send and a forced run of the same task, then a new task in its place.
    async (live, taskId) => {
      await Promise.all([
        call('test send', 'POST', `/api/v1/tasks/${taskId}/notifications/test`, live.user, {}),
        call('execute force', 'POST', `/api/v1/tasks/${taskId}/execute?force=true`, live.user, {}),
        delay(randomInt(0, 30)).then(() =>
          call('delete', 'DELETE', `/api/v1/tasks/${taskId}`, live.user),
        ),
      ]);
      live.tasks = live.tasks.filter((id) => id !== taskId);
      const replacement = await createTaskVia(call, live.user, options.receiver.url);
      if (replacement) live.tasks.push(replacement);
    },
  ];

  const deadline = Date.now() + options.durationMs;
  const client = async (): Promise<void> => {
    while (Date.now() < deadline) {
      const chosen = pick();
      if (!chosen) {
        await delay(50);
        continue;
      }
      await operations[randomInt(operations.length)](chosen.live, chosen.taskId);
    }
  };
  let deactivated = 0;
  const administrator = async (): Promise<void> => {
    while (Date.now() + options.deactivateEveryMs < deadline) {
      await delay(options.deactivateEveryMs);
      const candidates = users.filter((live) => !live.deactivated);
      if (candidates.length === 0) continue;
      const victim = candidates[randomInt(candidates.length)];
      // Their requests keep coming while the deactivation commits: those must not 500 either.
      const { status } = await call(
        'deactivate',
        'PATCH',
        `/admin/users/${victim.user.id}/deactivate`,
        admin,
      );
      if (status === 200) {
        await delay(200);
        victim.deactivated = true;
        deactivated += 1;
        users.push(await signUp());
      }
    }
  };
  await Promise.all([administrator(), ...Array.from({ length: options.clients }, () => client())]);

  const [{ deadlocks: deadlocksAfter }] = (
    await db.query<{ deadlocks: string }>(
      'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
    )
  ).rows;

  // Drain: the users' tasks stop, and whatever is in flight must end on its own.
  for (const live of users.filter((candidate) => !candidate.deactivated)) {
    await Promise.all(
      live.tasks.map((taskId) =>
        call('pause', 'PUT', `/api/v1/tasks/${taskId}`, live.user, { state: 'paused' }),
      ),
    );
  }
  const drainStart = Date.now();
  let inFlight = Number.POSITIVE_INFINITY;
  let drainMs: number | null = null;
  while (Date.now() - drainStart < 25_000) {
    inFlight = (
      await db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM executions WHERE status = ANY($1)',
        [IN_FLIGHT],
      )
    ).rows[0].count;
    if (inFlight === 0) {
      drainMs = Date.now() - drainStart;
      break;
    }
    await delay(250);
  }

  const queued = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM tasks t JOIN users u ON u.id = t.user_id
     WHERE u.state = 'deactivated' AND (t.state = 'active' OR EXISTS (
       SELECT 1 FROM ${QUEUE_SCHEMA}.job j
       WHERE j.name = $1 AND j.data ->> 'taskId' = t.id::text AND j.state IN ('created', 'retry')))`,
    [CHECK_QUEUE],
  );
  const lost = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM executions
     WHERE status = 'failed' AND error_message LIKE 'The check''s result could not be stored%'`,
  );
  return {
    requests,
    statuses,
    serverErrors,
    deactivated,
    inFlightAfterDrain: inFlight,
    drainMs,
    deactivatedUsersQueuedTasks: queued.rows[0].count,
    resultsLost: lost.rows[0].count,
    deadlocks: Number(deadlocksAfter) - Number(deadlocksBefore),
  };
}

/** One line for a log or BENCHMARKS.md. */
export function describeLockLoad(result: LockLoadResult): string {
  const fiveHundreds = result.serverErrors.length;
  return [
    `${result.requests} requests`,
    `${fiveHundreds} answered 5xx`,
    `${result.deadlocks} deadlocks in PostgreSQL`,
    `${result.deactivated} users deactivated`,
    `${result.inFlightAfterDrain} executions in flight after the drain` +
      (result.drainMs === null ? ' (never drained)' : ` (drained in ${result.drainMs} ms)`),
    `${result.deactivatedUsersQueuedTasks} tasks of deactivated users with a queued check`,
    `${result.resultsLost} results lost`,
  ].join(', ');
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function taskBody(receiverUrl: string): Record<string, unknown> {
  return {
    search_query: `lock load ${randomInt(1_000_000_000)}`,
    state: 'active',
    notify_behavior: 'always',
    notifications: [{ type: 'webhook', url: `${receiverUrl}/hook` }],
  };
}

async function createTask(
  target: LoadTarget,
  user: TestUser,
  receiverUrl: string,
): Promise<string | null> {
  const response = await fetch(`${target.baseUrl}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: user.auth, 'content-type': 'application/json' },
    body: JSON.stringify(taskBody(receiverUrl)),
  });
  if (response.status !== 200) return null;
  return ((await response.json()) as { id: string }).id;
}

async function createTaskVia(
  call: (
    operation: string,
    method: string,
    path: string,
    user: TestUser,
    body?: unknown,
  ) => Promise<{ status: number; body: unknown }>,
  user: TestUser,
  receiverUrl: string,
): Promise<string | null> {
  const { status, body } = await call(
    'create',
    'POST',
    '/api/v1/tasks',
    user,
    taskBody(receiverUrl),
  );
  return status === 200 ? (body as { id: string }).id : null;
}
