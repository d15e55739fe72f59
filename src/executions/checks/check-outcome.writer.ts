import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isCooldownEvent } from '../../attention/decisions/attention-events';
import {
  deliveryJobId,
  reminderJob,
  type DeliveryJob,
} from '../../notifications/delivery/delivery-job';
import { pageResultLine } from '../../pages/results/page-result-line';
import type { PageResult } from '../../pages/page.types';
import { CHECK_QUEUE, JobQueueService } from '../../scheduler/job-queue.service';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import { ProviderError, type ProviderUsage } from '../../search/search-provider';
import type { AlertPlan } from '../../attention/decisions/alert-planning';
import type { UsageRecord } from '../../usage/usage.repository';
import { UsageService } from '../../usage/usage.service';
import type { CheckAnswer, FinalPlan, TaskOutcome } from '../decisions/check-outcome';
import { CheckRunRepository, type ExecutionOutcome } from '../check-run.repository';
import { CheckScheduleRepository } from './check-schedule.repository';
import { CheckPagesWriter } from './check-pages.writer';
import { CheckPlanner, type PlannedCheck } from './check.planner';
import { valuesSchemaOf, type ClaimedCheck, type FinishedCheck } from './claimed-check';

/** A check that ends: its execution is written, then (once written) its task moves on. */
interface EndedCheck extends FinishedCheck {
  plan: FinalPlan;
  alert: AlertPlan | null;
}

/** An ended check whose task still exists. */
interface MovingCheck extends EndedCheck {
  plan: FinalPlan & { task: TaskOutcome };
}

/** A failed check whose execution this batch wrote. */
export interface RecordedFailure {
  check: ClaimedCheck;
  error: Error;
}

/**
 * Writes a batch of check outcomes and everything that follows from them in one transaction:
 * the executions, their usage, the pages' snapshots, the tasks' next state and schedule, the
 * deliveries, and the jobs.
 */
@Injectable()
export class CheckOutcomeWriter {
  constructor(
    private readonly planner: CheckPlanner,
    private readonly executions: CheckRunRepository,
    private readonly schedule: CheckScheduleRepository,
    private readonly queue: JobQueueService,
    private readonly usage: UsageService,
    private readonly worker: WorkerIdentity,
    private readonly pages: CheckPagesWriter,
  ) {}

  /**
   * Records a batch of outcomes in the caller's transaction: the tasks are locked, each outcome
   * is planned, and the plans are written. Returns the failed checks it recorded.
   */
  async write(manager: EntityManager, items: FinishedCheck[]): Promise<RecordedFailure[]> {
    const planned = await this.plan(manager, items);
    const jobsToComplete = await this.sendBackForRetry(manager, planned);
    const ended = planned.flatMap(({ plan, ...item }) =>
      plan.completesJob ? [{ ...item, plan }] : [],
    );
    const recorded = await this.recordExecutions(manager, ended);
    jobsToComplete.push(...ended.map(({ check }) => check.job.id));
    await this.moveTasksOn(
      manager,
      ended.filter((item) => recorded.has(item.check.executionId)).filter(movesTask),
    );
    await this.queue.complete(manager, CHECK_QUEUE, jobsToComplete);
    // The calls are over: their usage (if any) is recorded above, their reservations end here.
    await this.usage.releaseCalls(
      items.map((item) => item.check.reservationId),
      manager,
    );
    return ended.flatMap(({ check, outcome }) =>
      outcome instanceof Error && recorded.has(check.executionId)
        ? [{ check, error: outcome }]
        : [],
    );
  }

  /** Locks the batch's tasks (in id order, so concurrent batches cannot deadlock) and plans. */
  private async plan(manager: EntityManager, items: FinishedCheck[]): Promise<PlannedCheck[]> {
    const tasks = await this.schedule.lockForOutcomes(manager, [
      ...new Set(items.map((item) => item.check.taskId)),
    ]);
    const histories = await this.executions.findCheckHistories(
      manager,
      items.filter((item) => !(item.outcome instanceof Error)).map((item) => item.check.taskId),
    );
    return this.planner.planAll(items, tasks, histories);
  }

  /**
   * Puts the executions of the checks planned for a retry back to `retrying` and their jobs back
   * to the queue. Returns the jobs to complete: those whose execution no longer runs here.
   */
  private async sendBackForRetry(
    manager: EntityManager,
    planned: PlannedCheck[],
  ): Promise<string[]> {
    const retrying = planned.flatMap(({ check, plan }) =>
      plan.completesJob ? [] : [{ check, message: plan.message }],
    );
    if (retrying.length === 0) return [];
    const marked = await this.executions.markRetrying(
      manager,
      retrying.map(({ check, message }) => ({
        executionId: check.executionId,
        attempt: check.attempt,
        message,
      })),
      this.worker.id,
    );
    await this.queue.fail(
      CHECK_QUEUE,
      retrying
        .filter(({ check }) => marked.has(check.executionId))
        .map(({ check }) => check.job.id),
      'provider call failed',
      manager,
    );
    return retrying
      .filter(({ check }) => !marked.has(check.executionId))
      .map(({ check }) => check.job.id);
  }

  /**
   * Writes the final status and usage of each execution still running on this worker, and the
   * usage events of those written (one statement each for the batch); returns those written.
   */
  private async recordExecutions(
    manager: EntityManager,
    ended: EndedCheck[],
  ): Promise<Set<string>> {
    if (ended.length === 0) return new Set();
    const recorded = await this.executions.recordOutcomes(
      manager,
      ended.map(executionOutcome),
      this.worker.id,
    );
    for (const { check, outcome } of ended) {
      // Not recorded: the execution was cancelled, or handed to a newer attempt, while this one ran.
      check.ended = recorded.has(check.executionId)
        ? { status: outcome instanceof Error ? 'failed' : 'success', usage: usageOf(outcome) }
        : { status: 'cancelled', usage: null };
    }
    await this.usage.recordChecks(
      manager,
      ended.flatMap((item) => (recorded.has(item.check.executionId) ? usageRecords(item) : [])),
    );
    return recorded;
  }

  /**
   * Moves the tasks of recorded checks on: the pages read become the snapshots (and the item keys
   * they showed first are remembered, their screenshots kept), a superseded check job goes, the
   * next check is scheduled, the task row is written and the deliveries are queued.
   */
  private async moveTasksOn(manager: EntityManager, moving: MovingCheck[]): Promise<void> {
    const stored = moving.flatMap(({ check, outcome, pageResults }) =>
      pageResults === null
        ? []
        : [{ taskId: check.taskId, results: pagesToStore(outcome, pageResults) }],
    );
    await this.pages.store(manager, stored);
    await this.queue.removeChecks(
      manager,
      moving.flatMap(({ plan }) => (plan.checkJobToRemove ? [plan.checkJobToRemove] : [])),
    );
    const checkJobs = await this.scheduleNextChecks(manager, moving);
    await this.schedule.applyOutcomes(
      manager,
      moving.map((item) => ({
        ...item.plan.task,
        id: item.check.taskId,
        alertSentAt: item.alert?.alertSentAt ?? null,
        lastExecutionId: item.check.executionId,
        checkJobId: checkJobs.get(item) ?? null,
      })),
    );
    await this.queue.enqueueDeliveries(manager, moving.flatMap(deliveryJobs));
  }

  /** Queues a check job for each task with a next run; returns each one's job id. */
  private async scheduleNextChecks(
    manager: EntityManager,
    moving: MovingCheck[],
  ): Promise<Map<MovingCheck, string>> {
    const scheduled = moving.flatMap((item) =>
      item.plan.task.nextRun === null ? [] : [{ item, runAt: item.plan.task.nextRun }],
    );
    const jobIds = await this.queue.scheduleChecks(
      manager,
      scheduled.map(({ item, runAt }) => ({ taskId: item.check.taskId, runAt })),
    );
    return new Map(scheduled.map(({ item }, index) => [item, jobIds[index]]));
  }
}

/**
 * The delivery jobs a moving check queues: its deliveries (an alert waiting for the task's
 * cooldown says until when) and the first reminder of a new standing alert through each channel
 * its `condition_met` goes to (docs/attention.md).
 */
function deliveryJobs({ check, plan, alert }: MovingCheck): DeliveryJob[] {
  const { executionId, taskId } = check;
  const cooldownUntil = alert?.cooldownUntil?.toISOString();
  const jobs: DeliveryJob[] = plan.deliveries.map(({ channel, event }) => ({
    id: deliveryJobId(executionId, channel, event),
    data: {
      executionId,
      taskId,
      channel,
      event,
      ...(cooldownUntil && isCooldownEvent(event) ? { cooldownUntil } : {}),
    },
  }));
  const firstReminderAt = alert?.firstReminderAt;
  if (!firstReminderAt) return jobs;
  return [
    ...jobs,
    ...plan.deliveries
      .filter(({ event }) => event === 'condition_met')
      .map(({ channel }) => reminderJob({ executionId, taskId, channel }, 1, firstReminderAt)),
  ];
}

/**
 * What a check's pages leave in their snapshots: everything it read, or for a failed check only
 * its pages' errors, so a text no model read stays new to the next check (docs/pages.md,
 * "Snapshots").
 */
function pagesToStore(outcome: CheckAnswer | Error, results: PageResult[]): PageResult[] {
  return outcome instanceof Error ? results.filter((result) => result.status === 'error') : results;
}

function movesTask(item: EndedCheck): item is MovingCheck {
  return item.plan.task !== null;
}

/** The final columns of a check's execution. */
function executionOutcome({
  check,
  outcome,
  provider,
  plan,
  pageResults,
}: EndedCheck): ExecutionOutcome {
  const verdict = plan.verdict;
  const usage = usageOf(outcome);
  const written = {
    id: check.executionId,
    attempt: check.attempt,
    notification: JSON.stringify(plan.notification),
    evidence: verdict ? JSON.stringify(verdict.evidence) : null,
    values: verdict?.values ? JSON.stringify(verdict.values) : null,
    changes: verdict?.changes ? JSON.stringify(verdict.changes) : null,
    valuesSchemaKey: verdict?.values ? (valuesSchemaOf(check)?.key ?? null) : null,
    usage: usage === null ? null : JSON.stringify(usage),
    pageResults: pageResults === null ? null : JSON.stringify(pageResults.map(pageResultLine)),
  };
  if (outcome instanceof Error) {
    return {
      ...written,
      verdictExecutionId: null,
      status: 'failed',
      error: outcome.message,
      result: JSON.stringify({ condition_met: null, error: outcome.message }),
      conditionMet: null,
      claimedMet: null,
      answer: null,
      reasoning: null,
      sources: null,
    };
  }
  const conditionMet = verdict?.conditionMet ?? outcome.conditionMet;
  return {
    ...written,
    status: 'success',
    error: null,
    result: JSON.stringify({
      condition_met: conditionMet,
      claimed_met: outcome.conditionMet,
      answer: outcome.answer,
      reasoning: outcome.reasoning,
      current_state: outcome.currentState,
      next_check_at: outcome.nextCheckAt?.toISOString() ?? null,
      provider,
    }),
    conditionMet,
    claimedMet: outcome.conditionMet,
    answer: outcome.answer,
    reasoning: outcome.reasoning,
    sources: JSON.stringify(outcome.groundingSources),
    // A page check's verdict is its own, or the earlier one its unchanged pages carried.
    verdictExecutionId:
      outcome.carriedFrom?.verdictExecutionId ?? (pageResults === null ? null : check.executionId),
  };
}

/** The usage event of a recorded check whose call reached the provider. */
function usageRecords({ check, outcome }: FinishedCheck): UsageRecord[] {
  const usage = usageOf(outcome);
  return usage === null
    ? []
    : [{ userId: check.userId, kind: 'check', executionId: check.executionId, usage }];
}

/** The usage of a call that reached the provider; null when none was made. */
function usageOf(outcome: CheckAnswer | Error): ProviderUsage | null {
  if (outcome instanceof ProviderError) return outcome.usage;
  return outcome instanceof Error ? null : outcome.usage;
}
