import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import {
  CHECK_QUEUE,
  JobQueueService,
  type CheckJobData,
  type QueueJob,
} from '../../scheduler/job-queue.service';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import type { EarlierVerdict } from '../decisions/page-check';
import { CheckRunRepository, type ClaimedRun, type RunDetails } from '../check-run.repository';
import { CheckScheduleRepository } from './check-schedule.repository';
import { CHECK_LOG_CONTEXT, checkReleaseDeadline, type ClaimedCheck } from './claimed-check';

type CheckJob = QueueJob<CheckJobData>;

/** What a claim found: checks now running here, and jobs whose task another transaction holds. */
interface ClaimRound {
  claimed: ClaimedCheck[];
  busy: CheckJob[];
}

/** A claim's jobs after its tasks are locked. */
interface LockedJobs {
  /** The tasks this claim holds. */
  locked: Set<string>;
  /** The jobs this claim settles: their task is locked, or not claimable at all. */
  jobs: CheckJob[];
  /** The jobs whose task another transaction holds. */
  busy: CheckJob[];
}

/**
 * A claim skips tasks another transaction holds (a request changing the task, a result being
 * recorded) and comes back for them after a short pause; the last round waits for their locks.
 */
const CLAIM_ROUNDS = 4;
const CLAIM_PAUSE_MS = 25;

/**
 * Claims the jobs of a batch: each job's execution becomes `running` on this worker (created for a
 * scheduled check), and what the check asks is read, in one transaction per round.
 */
@Injectable()
export class CheckClaimer {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly queue: JobQueueService,
    private readonly worker: WorkerIdentity,
    private readonly executions: CheckRunRepository,
    private readonly schedule: CheckScheduleRepository,
    @InjectPinoLogger(CHECK_LOG_CONTEXT) private readonly logger: PinoLogger,
  ) {}

  /**
   * Claims in rounds: tasks held by another transaction are skipped and tried again after a short
   * jittered pause, the last round waiting for their locks. A round that fails for good sends
   * its jobs back to the queue; the checks already claimed run on (none is left `running`
   * without a worker on it).
   */
  async claimAll(jobs: CheckJob[]): Promise<ClaimedCheck[]> {
    const claimed: ClaimedCheck[] = [];
    let pending = jobs;
    for (let round = 1; pending.length > 0; round++) {
      const waitForLocks = round >= CLAIM_ROUNDS;
      const vouchedAt = this.worker.lastBeatAt;
      try {
        const result = await this.transactions.run((manager) =>
          this.claim(manager, pending, waitForLocks, vouchedAt),
        );
        claimed.push(...result.claimed);
        pending = result.busy;
      } catch (error) {
        if (claimed.length === 0) throw error;
        this.logger.warn({ jobs: pending.length, err: error }, 'Claiming checks failed');
        await this.queue.failOnceReachable(
          CHECK_QUEUE,
          pending.map((job) => job.id),
          'claim failed',
          checkReleaseDeadline(pending),
        );
        break;
      }
      if (pending.length > 0)
        await new Promise((resolve) => setTimeout(resolve, CLAIM_PAUSE_MS * (0.5 + Math.random())));
    }
    return claimed;
  }

  /**
   * Marks each job's execution running (creating it for a scheduled check). A scheduled check only
   * runs while it is still its task's current check and the task is active; a run already in
   * flight for the task (a manual one) wins, and its result schedules the next check. Jobs with
   * nothing to run are completed at once.
   */
  private async claim(
    manager: EntityManager,
    batch: CheckJob[],
    waitForLocks: boolean,
    vouchedAt: number,
  ): Promise<ClaimRound> {
    const { locked, jobs, busy } = await this.lockTasks(manager, batch, waitForLocks);
    const runs = await this.startRuns(
      manager,
      jobs.filter((job) => locked.has(job.data.taskId)),
    );
    const started = new Set(runs.map((run) => run.job_id));
    await this.queue.complete(
      manager,
      CHECK_QUEUE,
      jobs.filter((job) => !started.has(job.id)).map((job) => job.id),
    );
    if (runs.length === 0) return { claimed: [], busy };
    return { claimed: await this.readChecks(manager, runs, jobs, vouchedAt), busy };
  }

  /**
   * Locks the batch's tasks, the first step of the lock order: the tasks in id order, then their
   * executions and jobs. Tasks of inactive users are not claimed: their jobs are settled.
   */
  private async lockTasks(
    manager: EntityManager,
    batch: CheckJob[],
    waitForLocks: boolean,
  ): Promise<LockedJobs> {
    const taskIds = [...new Set(batch.map((job) => job.data.taskId))];
    const locked = new Set(await this.schedule.lockForClaim(manager, taskIds, !waitForLocks));
    const held =
      locked.size === taskIds.length
        ? new Set<string>()
        : new Set(
            await this.schedule.claimableTasks(
              manager,
              taskIds.filter((id) => !locked.has(id)),
            ),
          );
    return {
      locked,
      jobs: batch.filter((job) => !held.has(job.data.taskId)),
      busy: batch.filter((job) => held.has(job.data.taskId)),
    };
  }

  /** Marks the executions of these jobs running here: manual runs first, then scheduled ones. */
  private async startRuns(manager: EntityManager, jobs: CheckJob[]): Promise<ClaimedRun[]> {
    const manual = jobs.flatMap((job) =>
      job.data.executionId ? [{ executionId: job.data.executionId, jobId: job.id }] : [],
    );
    const scheduled = jobs.filter((job) => !job.data.executionId);
    return [
      ...(manual.length > 0
        ? await this.executions.claimManualRuns(manager, manual, this.worker.id)
        : []),
      ...(scheduled.length > 0 ? await this.startScheduledRuns(manager, scheduled) : []),
    ];
  }

  /** A redelivered job (retry, or a worker that died) continues its execution row. */
  private async startScheduledRuns(
    manager: EntityManager,
    scheduled: CheckJob[],
  ): Promise<ClaimedRun[]> {
    const resumed = await this.executions.resumeScheduledRuns(
      manager,
      scheduled.map((job) => job.id),
      this.worker.id,
    );
    const resumedJobs = new Set(resumed.map((row) => row.job_id));
    const fresh = scheduled.filter((job) => !resumedJobs.has(job.id));
    if (fresh.length === 0) return resumed;
    return [
      ...resumed,
      ...(await this.executions.startScheduledRuns(
        manager,
        fresh.map((job) => ({ taskId: job.data.taskId, jobId: job.id })),
        this.worker.id,
      )),
    ];
  }

  /** What each started run checks: its task's question and the state it last saw. */
  private async readChecks(
    manager: EntityManager,
    runs: ClaimedRun[],
    jobs: CheckJob[],
    vouchedAt: number,
  ): Promise<ClaimedCheck[]> {
    const details = await this.executions.findRunDetails(
      manager,
      runs.map((run) => run.id),
    );
    const jobsById = new Map(jobs.map((job) => [job.id, job]));
    const byExecution = new Map(details.map((row) => [row.execution_id, row]));
    return runs.flatMap((run) => {
      const detail = byExecution.get(run.id);
      const job = jobsById.get(run.job_id);
      return detail && job ? [claimedCheck(job, run, detail, vouchedAt)] : [];
    });
  }
}

function claimedCheck(
  job: CheckJob,
  run: ClaimedRun,
  detail: RunDetails,
  vouchedAt: number,
): ClaimedCheck {
  return {
    job,
    executionId: detail.execution_id,
    attempt: run.attempts,
    vouchedAt,
    interrupted: job.data.interrupted === true,
    taskId: detail.task_id,
    userId: detail.user_id,
    budgetReached: false,
    reservationId: null,
    searchQuery: detail.search_query,
    conditionDescription: detail.condition_description,
    previousState: detail.previous_state ?? detail.last_known_state,
    previousCheckAt: detail.previous_at,
    outputSchema: detail.output_schema,
    pages: detail.pages,
    pageRule: detail.page_rule,
    notifyBehavior: detail.notify_behavior,
    earlierVerdict: earlierVerdict(detail),
  };
}

/** The last successful execution's verdict, when it has one a page check can carry. */
function earlierVerdict(detail: RunDetails): EarlierVerdict | null {
  const previous = detail.previous_verdict;
  if (previous === null || previous.answer === null || previous.reasoning === null) return null;
  return {
    verdictExecutionId: previous.verdict_execution_id,
    claimedMet: previous.claimed_met === true,
    conditionMet: previous.condition_met === true,
    answer: previous.answer,
    reasoning: previous.reasoning,
    values: previous.output_values,
    currentState: detail.previous_state ?? {},
    awaitingConfirmation: previous.awaiting_confirmation === true,
  };
}
