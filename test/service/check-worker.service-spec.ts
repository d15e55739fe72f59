import { randomUUID } from 'node:crypto';
import type { AuthenticatedUser } from '../../src/auth/authenticated-user';
import { PinoLogger } from 'nestjs-pino';
import { CheckRunnerService } from '../../src/executions/checks/check-runner.service';
import { CHECK_QUEUE_DECLARATION } from '../../src/executions/checks/check.queue';
import { pullerOf } from '../../src/scheduler/declared-queues.service';
import { CHECK_QUEUE, JobQueueService } from '../../src/scheduler/job-queue.service';
import type { SchedulerConfig } from '../../src/scheduler/scheduler.config';
import { worstCaseCheckMs } from '../../src/search/provider-call-budget';
import { TaskChanges } from '../../src/tasks/task-changes.service';
import { UsersService } from '../../src/users/users.service';
import { startServiceContext, type ServiceContext } from '../support/service-context';
import { waitFor } from '../support/wait';

const NOT_MET = {
  conditionMet: false,
  answer: 'Nothing yet.',
  reasoning: 'No announcement found.',
  currentState: {},
  nextCheckAt: null,
  groundingSources: [],
  values: undefined,
};

/** The check queue and the worker's slots (docs/architecture.md, "A check is paid for once"). */
describe('the check queue worker (service tier: real database and queue, scripted provider)', () => {
  let context: ServiceContext;
  let caller: AuthenticatedUser;

  beforeAll(async () => {
    context = await startServiceContext();
    const user = await context.get(UsersService).syncFromIdentity({
      subject: `user_${randomUUID()}`,
      email: 'worker@example.com',
      emailVerified: true,
      adminClaim: false,
    });
    caller = { user, id: user.id, isAdmin: false, credential: 'jwt', apiKeyId: null };
  });

  afterAll(() => context.close());

  async function executionStatus(taskId: string): Promise<string | undefined> {
    const { rows } = await context.db.query<{ status: string }>(
      'SELECT status FROM executions WHERE task_id = $1 ORDER BY created_at DESC LIMIT 1',
      [taskId],
    );
    return rows[0]?.status;
  }

  it("should give a check's job an expiry past the check's worst case when the queue stores it", async () => {
    const { rows: queues } = await context.db.query<{ expire_seconds: number }>(
      'SELECT expire_seconds FROM pgboss.queue WHERE name = $1',
      [CHECK_QUEUE],
    );
    expect(queues[0].expire_seconds * 1000).toBeGreaterThan(worstCaseCheckMs());

    const task = await context
      .get(TaskChanges)
      .create(caller, { search_query: `Has release ${randomUUID()} shipped?` });
    const { rows: jobs } = await context.db.query<{ expire_ms: number }>(
      `SELECT extract(epoch FROM expire_in) * 1000 AS expire_ms FROM pgboss.job
       WHERE name = $1 AND data ->> 'taskId' = $2`,
      [CHECK_QUEUE, task.id],
    );
    expect(Number(jobs[0].expire_ms)).toBeGreaterThan(worstCaseCheckMs());
    await context.get(TaskChanges).remove(caller, task.id);
  });

  it('should keep running the fast checks of a batch while one slow check holds its own slot', async () => {
    const tasks = context.get(TaskChanges);
    const slowQuery = `Slow release ${randomUUID()}?`;
    const release = context.provider.hold(slowQuery);
    context.provider.script(slowQuery, NOT_MET);
    // Created in this order, so the first fetch of two takes the slow check and one fast one.
    const slow = await tasks.create(caller, { search_query: slowQuery });
    const fast: Array<{ id: string }> = [];
    for (let index = 0; index < 5; index++) {
      const query = `Fast release ${randomUUID()}?`;
      context.provider.script(query, NOT_MET);
      fast.push(await tasks.create(caller, { search_query: query }));
    }

    const runner = context.get(CheckRunnerService);
    const worker = pullerOf(
      context.get(JobQueueService),
      new PinoLogger({}),
      {
        minIntervalMs: 15 * 60_000,
        maxIntervalMs: 7 * 24 * 3_600_000,
        pageCheckIntervalMs: 3_600_000,
        workerEnabled: true,
        workerConcurrency: 2,
      } satisfies SchedulerConfig,
      {
        declaration: CHECK_QUEUE_DECLARATION,
        work: runner.runBatch.bind(runner),
      },
    );
    worker.start();
    try {
      await waitFor(
        async () => {
          const statuses = await Promise.all(fast.map((task) => executionStatus(task.id)));
          return statuses.every((status) => status === 'success');
        },
        { timeoutMs: 10_000, what: 'every fast check to end while the slow one runs' },
      );
      expect(await executionStatus(slow.id)).toBe('running');
    } finally {
      release();
      await worker.stop();
    }
    expect(await executionStatus(slow.id)).toBe('success');
  });
});
