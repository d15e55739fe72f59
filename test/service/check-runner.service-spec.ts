import { randomUUID } from 'node:crypto';
import type { AuthenticatedUser } from '../../src/auth/authenticated-user';
import { DEFAULT_CHECK_INTERVAL_MS } from '../../src/executions/decisions/check-outcome';
import { CheckRunnerService } from '../../src/executions/checks/check-runner.service';
import {
  CHECK_QUEUE,
  DELIVERY_QUEUE,
  JobQueueService,
  type CheckJobData,
} from '../../src/scheduler/job-queue.service';
import { ProviderError } from '../../src/search/search-provider';
import { TaskChanges } from '../../src/tasks/task-changes.service';
import { UsersService } from '../../src/users/users.service';
import {
  startServiceContext,
  type ScriptedReply,
  type ServiceContext,
} from '../support/service-context';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function reply(overrides: Partial<Exclude<ScriptedReply, Error>> = {}): ScriptedReply {
  return {
    conditionMet: false,
    answer: 'Nothing yet.',
    reasoning: 'No announcement found.',
    currentState: {},
    nextCheckAt: null,
    groundingSources: [],
    values: undefined,
    ...overrides,
  };
}

describe('CheckRunnerService (service tier: real database, set clock, scripted provider)', () => {
  let context: ServiceContext;
  let runner: CheckRunnerService;
  let tasks: TaskChanges;
  let queue: JobQueueService;
  let caller: AuthenticatedUser;

  beforeAll(async () => {
    context = await startServiceContext({
      SCHEDULER_MIN_INTERVAL: '15m',
      SCHEDULER_MAX_INTERVAL: '7d',
    });
    runner = context.get(CheckRunnerService);
    tasks = context.get(TaskChanges);
    queue = context.get(JobQueueService);
    const user = await context.get(UsersService).syncFromIdentity({
      subject: `user_${randomUUID()}`,
      email: 'runner@example.com',
      emailVerified: true,
      adminClaim: false,
    });
    caller = { user, id: user.id, isAdmin: false, credential: 'jwt', apiKeyId: null };
  });

  afterAll(() => context.close());

  /** An active task whose first check is due now, and the runner running that check. */
  async function runFirstCheck(
    body: { notify_behavior?: 'once' | 'always'; notifications?: unknown[] } = {},
  ) {
    const searchQuery = `Has release ${randomUUID()} shipped?`;
    const task = await tasks.create(caller, { search_query: searchQuery, ...body });
    const jobs = await queue.fetch<CheckJobData>(CHECK_QUEUE, 100);
    const job = jobs.find((candidate) => candidate.data.taskId === task.id);
    expect(job).toBeDefined();
    return { task, searchQuery, jobId: job!.id, run: () => runner.runBatch([job!]) };
  }

  async function taskRow(id: string) {
    const { rows } = await context.db.query<{
      state: string;
      next_run: Date | null;
      last_execution_id: string | null;
    }>('SELECT state, next_run, last_execution_id FROM tasks WHERE id = $1', [id]);
    return rows[0];
  }

  async function executionsOf(taskId: string) {
    const { rows } = await context.db.query<{
      status: string;
      answer: string | null;
      error_message: string | null;
      usage: unknown;
    }>(
      'SELECT status, answer, error_message, usage FROM executions WHERE task_id = $1 ORDER BY created_at',
      [taskId],
    );
    return rows;
  }

  it('should schedule the next check at the time the agent chose when it is within the bounds', async () => {
    const now = new Date();
    context.clock.set(now);
    const first = await runFirstCheck();
    context.provider.script(
      first.searchQuery,
      reply({ nextCheckAt: new Date(now.getTime() + 2 * HOUR) }),
    );
    await first.run();

    expect(await executionsOf(first.task.id)).toEqual([
      expect.objectContaining({ status: 'success', answer: 'Nothing yet.', error_message: null }),
    ]);
    const row = await taskRow(first.task.id);
    expect(row.state).toBe('active');
    expect(row.next_run?.getTime()).toBe(now.getTime() + 2 * HOUR);
  });

  it('should clamp the next check to SCHEDULER_MAX_INTERVAL when the agent picks a later time', async () => {
    const now = new Date();
    context.clock.set(now);
    const first = await runFirstCheck();
    context.provider.script(
      first.searchQuery,
      reply({ nextCheckAt: new Date(now.getTime() + 30 * 24 * HOUR) }),
    );
    await first.run();
    expect((await taskRow(first.task.id)).next_run?.getTime()).toBe(now.getTime() + 7 * 24 * HOUR);
  });

  it('should check again after an hour when the agent gives no time, and after the minimum when the check failed', async () => {
    const now = new Date();
    context.clock.set(now);
    const quiet = await runFirstCheck();
    context.provider.script(quiet.searchQuery, reply());
    await quiet.run();
    expect((await taskRow(quiet.task.id)).next_run?.getTime()).toBe(
      now.getTime() + DEFAULT_CHECK_INTERVAL_MS,
    );

    const broken = await runFirstCheck();
    context.provider.script(broken.searchQuery, new ProviderError('the reply could not be read'));
    await broken.run();
    expect(await executionsOf(broken.task.id)).toEqual([
      expect.objectContaining({ status: 'failed', error_message: 'the reply could not be read' }),
    ]);
    expect((await taskRow(broken.task.id)).next_run?.getTime()).toBe(now.getTime() + 15 * MINUTE);
  });

  it('should complete a once task and queue one delivery per channel when the condition is met', async () => {
    const first = await runFirstCheck({
      notify_behavior: 'once',
      notifications: [{ type: 'email', address: 'runner@example.com' }],
    });
    context.provider.script(
      first.searchQuery,
      reply({ conditionMet: true, answer: 'Shipped on Monday.' }),
    );
    await first.run();

    const row = await taskRow(first.task.id);
    expect(row).toMatchObject({ state: 'completed', next_run: null });
    const [execution] = await executionsOf(first.task.id);
    expect(execution).toMatchObject({ status: 'success', answer: 'Shipped on Monday.' });
    expect(execution.usage).toMatchObject({
      provider: 'scripted',
      input_tokens: 1000,
      output_tokens: 100,
      search_calls: 1,
    });
    const { rows } = await context.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pgboss.job WHERE name = $1 AND data ->> 'executionId' = $2`,
      [DELIVERY_QUEUE, row.last_execution_id],
    );
    expect(rows[0].count).toBe(1);
  });

  it('should keep the execution retrying and the job for a retry when the provider fails in a way worth retrying', async () => {
    const first = await runFirstCheck();
    context.provider.script(first.searchQuery, new ProviderError('HTTP 503', true));
    await first.run();
    expect(await executionsOf(first.task.id)).toEqual([
      expect.objectContaining({ status: 'retrying', error_message: 'HTTP 503' }),
    ]);
  });

  it('should send a retryable provider error back to the queue but fail a TypeError at once', async () => {
    const now = new Date();
    context.clock.set(now);
    const busy = await runFirstCheck();
    context.provider.script(busy.searchQuery, new ProviderError('HTTP 503', true));
    const broken = await runFirstCheck();
    const bug = new TypeError("Cannot read properties of undefined (reading 'text')");
    context.provider.script(broken.searchQuery, bug);
    await busy.run();
    await broken.run();

    expect(await executionsOf(busy.task.id)).toEqual([
      expect.objectContaining({ status: 'retrying', error_message: 'HTTP 503' }),
    ]);
    expect(await jobState(busy.jobId)).toBe('retry');
    // A bug fails the execution on its first try: the job ends and the next check is scheduled.
    expect(await executionsOf(broken.task.id)).toEqual([
      expect.objectContaining({ status: 'failed', error_message: bug.message }),
    ]);
    expect(await jobState(broken.jobId)).toBe('completed');
    expect((await taskRow(broken.task.id)).next_run?.getTime()).toBe(now.getTime() + 15 * MINUTE);
  });

  async function jobState(jobId: string): Promise<string | undefined> {
    const { rows } = await context.db.query<{ state: string }>(
      'SELECT state FROM pgboss.job WHERE id = $1',
      [jobId],
    );
    return rows[0]?.state;
  }
});
