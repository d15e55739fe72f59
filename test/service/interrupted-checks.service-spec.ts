import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { PinoLogger } from 'nestjs-pino';
import type { AuthenticatedUser } from '../../src/auth/authenticated-user';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { CheckScheduleRepository } from '../../src/executions/checks/check-schedule.repository';
import { CheckRunnerService } from '../../src/executions/checks/check-runner.service';
import {
  MAX_ATTEMPTS,
  StaleExecutionSweeper,
} from '../../src/executions/checks/stale-execution.sweeper';
import { INTERRUPTED_MESSAGE } from '../../src/executions/decisions/check-errors';
import { ExecutionRepository } from '../../src/executions/execution.repository';
import { ExecutionSweepRepository } from '../../src/executions/execution-sweep.repository';
import {
  CHECK_QUEUE,
  JobQueueService,
  type CheckJobData,
  type QueueJob,
} from '../../src/scheduler/job-queue.service';
import { WorkerIdentity } from '../../src/scheduler/worker-identity';
import { TaskChanges } from '../../src/tasks/task-changes.service';
import { UsersService } from '../../src/users/users.service';
import { PageServer } from '../support/page-server';
import { startServiceContext, type ServiceContext } from '../support/service-context';
import { waitFor } from '../support/wait';

const MINUTE = 60_000;

/**
 * A worker whose checks its sweeper took for abandoned (docs/architecture.md, "Nothing is lost
 * when a process dies"). The runner here is a worker whose heartbeat stopped (the service tier
 * writes none), held in the middle of its checks by pages that do not answer; another instance's
 * sweeper takes its checks back.
 */
describe('Checks of a worker taken for dead (service tier: real database and queue, local pages)', () => {
  let context: ServiceContext;
  let server: PageServer;
  let caller: AuthenticatedUser;
  let runner: CheckRunnerService;
  let queue: JobQueueService;
  /** The sweeper of another, live instance. */
  let otherInstance: StaleExecutionSweeper;
  /** Requests to the held pages, answered when the test says. */
  const held: Array<{ path: string; response: ServerResponse }> = [];

  beforeAll(async () => {
    server = await new PageServer().start();
    context = await startServiceContext({
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      SCHEDULER_MIN_INTERVAL: '15m',
    });
    runner = context.get(CheckRunnerService);
    queue = context.get(JobQueueService);
    otherInstance = new StaleExecutionSweeper(
      context.get(TransactionRunner),
      queue,
      new PinoLogger({}),
      context.clock,
      context.get(ExecutionRepository),
      context.get(ExecutionSweepRepository),
      context.get(CheckScheduleRepository),
      new WorkerIdentity(),
    );
    const user = await context.get(UsersService).syncFromIdentity({
      subject: `user_${randomUUID()}`,
      email: 'stalled@example.com',
      emailVerified: true,
      adminClaim: false,
    });
    caller = { user, id: user.id, isAdmin: false, credential: 'jwt', apiKeyId: null };
  });

  afterAll(async () => {
    answerAll();
    await context.close();
    await server.stop();
  });

  function answerAll(): void {
    for (const { response } of held.splice(0)) answer(response, 'released');
  }

  /** The held requests to `path`, in arrival order, taken out of the held ones. */
  function takeHeld(path: string): ServerResponse[] {
    const taken = held.filter((request) => request.path === path);
    held.splice(0, held.length, ...held.filter((request) => request.path !== path));
    return taken.map((request) => request.response);
  }

  function answer(response: ServerResponse, text: string): void {
    response.writeHead(200, { 'content-type': 'text/plain' }).end(text);
  }

  /** A page task whose page holds every request until the test answers it. */
  async function pageTask(body: { page_rule?: { type: 'changed' } } = {}) {
    const path = `/held-${randomUUID()}`;
    const url = server.page(path, (_request, response) => held.push({ path, response }));
    const searchQuery = `Has ${path} changed?`;
    const task = await context
      .get(TaskChanges)
      .create(caller, { search_query: searchQuery, pages: [{ url }], ...body });
    return { task, path, searchQuery, fetches: () => server.requestsTo(path).length };
  }

  /** The task's check job that is due now, taken from the queue; undefined when none is. */
  async function dueJob(taskId: string): Promise<QueueJob<CheckJobData> | undefined> {
    const jobs = await queue.fetch<CheckJobData>(CHECK_QUEUE, 100);
    return jobs.find((job) => job.data.taskId === taskId);
  }

  /**
   * Runs the job on the stalled worker until it waits on its page (`fetches` grew) or ends; the
   * run goes on in the background (`ended`).
   */
  async function startRun(job: QueueJob<CheckJobData>, fetches: () => number) {
    const before = fetches();
    let done = false;
    const ended = runner.runBatch([job]).finally(() => (done = true));
    await waitFor(async () => done || fetches() > before, { what: 'the check to reach its page' });
    return { ended };
  }

  async function executionsOf(taskId: string) {
    const { rows } = await context.db.query<{
      status: string;
      error_message: string | null;
      attempts: number;
    }>(
      'SELECT status, error_message, attempts FROM executions WHERE task_id = $1 ORDER BY created_at',
      [taskId],
    );
    return rows;
  }

  it('should leave the checks a worker runs itself to it, whatever its heartbeat says', async () => {
    const { task, fetches } = await pageTask({ page_rule: { type: 'changed' } });
    const { ended } = await startRun((await dueJob(task.id))!, fetches);

    await context.get(StaleExecutionSweeper).sweep();

    expect(await executionsOf(task.id)).toEqual([
      expect.objectContaining({ status: 'running', attempts: 1 }),
    ]);
    answerAll();
    await ended;
    expect(await executionsOf(task.id)).toEqual([expect.objectContaining({ status: 'success' })]);
  });

  it('should end a check its worker went silent on at every attempt as failed, and not check its task again at once', async () => {
    const now = new Date();
    context.clock.set(now);
    const { task, fetches } = await pageTask({ page_rule: { type: 'changed' } });
    // Due a while ago, as a check is after attempts that took minutes.
    await context.db.query(
      `UPDATE tasks SET next_run = now() - interval '10 minutes' WHERE id = $1`,
      [task.id],
    );

    const runs: Array<Promise<void>> = [];
    for (let round = 1; round <= MAX_ATTEMPTS + 2; round++) {
      const job = await dueJob(task.id);
      if (job === undefined) break;
      runs.push((await startRun(job, fetches)).ended);
      await otherInstance.sweep();
    }

    // Each attempt read the page once; the one after the last ended the check without reading it.
    expect(fetches()).toBe(MAX_ATTEMPTS);
    expect(await executionsOf(task.id)).toEqual([
      expect.objectContaining({ status: 'failed', error_message: INTERRUPTED_MESSAGE }),
    ]);
    const { rows } = await context.db.query<{ next_run: Date; consecutive_failures: number }>(
      'SELECT next_run, consecutive_failures FROM tasks WHERE id = $1',
      [task.id],
    );
    expect(rows[0].consecutive_failures).toBe(1);
    expect(rows[0].next_run.getTime()).toBeGreaterThanOrEqual(now.getTime() + 15 * MINUTE);

    // The silent worker wakes up: its attempts' answers are dropped.
    answerAll();
    await Promise.all(runs);
    expect(await executionsOf(task.id)).toEqual([
      expect.objectContaining({ status: 'failed', error_message: INTERRUPTED_MESSAGE }),
    ]);
    expect(await dueJob(task.id)).toBeUndefined();
  });

  it("should drop an older attempt's answer on the same worker and record the newer attempt's", async () => {
    const { task, path, fetches } = await pageTask({ page_rule: { type: 'changed' } });
    const first = (await startRun((await dueJob(task.id))!, fetches)).ended;
    await otherInstance.sweep();
    // The same worker, awake again, takes the check's next attempt.
    const second = (await startRun((await dueJob(task.id))!, fetches)).ended;
    const [older, newer] = takeHeld(path);

    answer(older, 'the older attempt');
    await first;
    expect(await executionsOf(task.id)).toEqual([
      expect.objectContaining({ status: 'running', attempts: 2 }),
    ]);

    answer(newer, 'the newer attempt');
    await second;
    expect(await executionsOf(task.id)).toEqual([
      expect.objectContaining({ status: 'success', attempts: 2 }),
    ]);
    const { rows } = await context.db.query<{ text: string }>(
      'SELECT text FROM page_snapshots WHERE task_id = $1',
      [task.id],
    );
    expect(rows).toEqual([{ text: 'the newer attempt' }]);
  });

  it('should make no model call for pages read by an attempt whose check went to another', async () => {
    const { task, searchQuery, fetches } = await pageTask();
    context.provider.script(searchQuery, {
      conditionMet: false,
      answer: 'Not yet.',
      reasoning: 'The page says nothing.',
      currentState: {},
      nextCheckAt: null,
      groundingSources: [],
      values: undefined,
    });
    const { ended } = await startRun((await dueJob(task.id))!, fetches);
    await otherInstance.sweep();

    answerAll();
    await ended;

    expect(
      context.provider.requests.filter((request) => request.searchQuery === searchQuery),
    ).toEqual([]);
    expect(await executionsOf(task.id)).toEqual([
      expect.objectContaining({ status: 'retrying', attempts: 1 }),
    ]);
  });
});
