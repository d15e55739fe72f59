import { randomUUID } from 'node:crypto';
import type { ExecutionBody, TaskBody } from '../support/api-bodies';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import type { RecordedRequest, StandInReply, WireStandIn } from '../support/wire-stand-in';

/** The specs that use this harness read the resources' shapes from here too. */
export type { ExecutionBody, NotificationDecisionBody, TaskBody } from '../support/api-bodies';

/**
 * Tests poll the API while checks run in the background; the per-key limits (100 a minute) would
 * turn that polling into 429s, so these apps get room. The limits have their own spec.
 */
export const ROOMY_RATE_LIMITS = {
  RATE_LIMIT_PER_MINUTE: '100000',
  RATE_LIMIT_PER_HOUR: '1000000',
  RATE_LIMIT_PER_DAY: '10000000',
  RATE_LIMIT_LLM_PER_HOUR: '1000000',
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const FINISHED = ['success', 'failed', 'cancelled'];
const IN_FLIGHT = ['pending', 'running', 'retrying'];

/** A search query no other test uses, so the provider script can answer for this task alone. */
export function uniqueQuery(label = 'monitor'): string {
  return `${label} ${randomUUID().replace(/-/g, '')}`;
}

/**
 * Routes a provider stand-in's model replies by search query: a file shares one app, and active
 * tasks are checked in the background, so a one-shot queue would hand replies to the wrong task.
 * Replies scripted for a query are used in order and the last one repeats; other checks get
 * "not met, next check in an hour", other suggestions the stand-in's default suggestion, and
 * search engine calls (SearXNG) the stand-in's default results.
 */
export class ProviderScript<R extends RecordedRequest<object> = RecordedRequest<object>> {
  private readonly scripts = new Map<string, StandInReply[]>();

  constructor(private readonly standIn: WireStandIn<R>) {
    standIn.respondWith((request) => this.reply(request));
  }

  /** Replies for every model call whose prompt contains `text` (a search query or a suggest prompt). */
  script(text: string, ...replies: StandInReply[]): void {
    this.scripts.set(text, [...replies]);
  }

  /** The model calls (not search engine calls) whose prompt contains `text`. */
  requestsFor(text: string): R[] {
    return this.standIn.requests.filter(
      (request) => request.kind !== 'search' && request.promptText.includes(text),
    );
  }

  private reply(request: R): StandInReply {
    if (request.kind !== 'search') {
      for (const [text, replies] of this.scripts) {
        if (!request.promptText.includes(text)) continue;
        return replies.length > 1 ? replies.shift()! : replies[0];
      }
    }
    return this.standIn.defaultReply(request);
  }
}

/** The Tasks and Executions endpoints, for one app. */
export class TaskApi {
  private readonly factory: Factory;

  constructor(private readonly testApp: TestApp) {
    this.factory = new Factory(testApp);
  }

  /** A task as the API makes it by default: active, so its first check is scheduled. */
  create(user: TestUser, body: Record<string, unknown>): Promise<TaskBody> {
    return this.factory.task(user, { state: 'active', ...body });
  }

  async get(user: TestUser, id: string): Promise<TaskBody> {
    const response = await this.testApp.http
      .get(`/api/v1/tasks/${id}`)
      .set('Authorization', user.auth)
      .expect(200);
    return response.body as TaskBody;
  }

  async execute(user: TestUser, id: string): Promise<ExecutionBody> {
    const response = await this.testApp.http
      .post(`/api/v1/tasks/${id}/execute`)
      .set('Authorization', user.auth)
      .expect(200);
    return response.body as ExecutionBody;
  }

  async executions(user: TestUser, id: string, query = ''): Promise<ExecutionBody[]> {
    const response = await this.testApp.http
      .get(`/api/v1/tasks/${id}/executions${query}`)
      .set('Authorization', user.auth)
      .expect(200);
    return response.body as ExecutionBody[];
  }

  /** Polls the executions endpoint until the execution reaches one of `statuses`. */
  async waitForExecution(
    user: TestUser,
    taskId: string,
    executionId: string,
    statuses: string[] = FINISHED,
    timeoutMs = 20_000,
  ): Promise<ExecutionBody> {
    return waitFor(
      async () => {
        const executions = await this.executions(user, taskId, '?limit=200');
        const execution = executions.find((candidate) => candidate.id === executionId);
        return execution && statuses.includes(execution.status) ? execution : undefined;
      },
      { what: `execution ${executionId} to be ${statuses.join('/')}`, timeoutMs },
    );
  }

  /**
   * Waits until a task has run at least `runs` checks and none is in flight: an active task is
   * checked right after it is created, and the tests that follow want that check behind them.
   */
  async waitForIdle(taskId: string, runs = 1): Promise<void> {
    await waitFor(
      async () => {
        const { rows } = await this.testApp.db.query<{ finished: number; in_flight: number }>(
          `SELECT count(*) FILTER (WHERE status = ANY($2))::int AS finished,
                  count(*) FILTER (WHERE status = ANY($3))::int AS in_flight
           FROM executions WHERE task_id = $1`,
          [taskId, FINISHED, IN_FLIGHT],
        );
        return rows[0].finished >= runs && rows[0].in_flight === 0;
      },
      { what: `task ${taskId} to finish ${runs} check(s)` },
    );
  }

  /** The task's row as stored (for what the API does not show: the queue job). */
  async row(taskId: string): Promise<{ state: string; name: string; check_job_id: string | null }> {
    const { rows } = await this.testApp.db.query<{
      state: string;
      name: string;
      check_job_id: string | null;
    }>('SELECT state, name, check_job_id FROM tasks WHERE id = $1', [taskId]);
    return rows[0];
  }

  /** The task's check jobs that can still run (pg-boss states created, retry, active). */
  async liveJobs(taskId: string): Promise<Array<{ id: string; start_after: Date }>> {
    const { rows } = await this.testApp.db.query<{ id: string; start_after: Date }>(
      `SELECT id, start_after FROM pgboss.job
       WHERE name = 'task-check' AND data->>'taskId' = $1 AND state IN ('created', 'retry', 'active')`,
      [taskId],
    );
    return rows;
  }

  async jobExists(jobId: string): Promise<boolean> {
    const { rows } = await this.testApp.db.query('SELECT 1 FROM pgboss.job WHERE id = $1', [jobId]);
    return rows.length > 0;
  }
}

/** One app with its Gemini stand-in and two users: the set-up most task and execution specs share. */
export interface TaskHarness {
  testApp: TestApp;
  gemini: GeminiStandIn;
  provider: ProviderScript<RecordedRequest<object>>;
  api: TaskApi;
  factory: Factory;
  owner: TestUser;
  stranger: TestUser;
  close(): Promise<void>;
}

export async function startTaskHarness(env: Record<string, string> = {}): Promise<TaskHarness> {
  const gemini = await new GeminiStandIn().start();
  const testApp = await startTestApp({ gemini, env: { ...ROOMY_RATE_LIMITS, ...env } });
  const factory = new Factory(testApp);
  const [owner, stranger] = await Promise.all([factory.user(), factory.user()]);
  return {
    testApp,
    gemini,
    provider: new ProviderScript(gemini),
    api: new TaskApi(testApp),
    factory,
    owner,
    stranger,
    async close() {
      await testApp.close();
      await gemini.stop();
    },
  };
}
