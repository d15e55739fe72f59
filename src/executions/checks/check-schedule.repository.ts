import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryRows } from '../../database/sql-rows';
import { CHECK_QUEUE, QUEUE_SCHEMA } from '../../scheduler/job-queue.service';
import type { VerdictInputs } from '../../pages/rules/page-rule';
import type { LockedTask, TaskOutcome } from '../decisions/check-outcome';

/** A task's outcome with the execution that produced it and the check job scheduled for it. */
export interface TaskOutcomeWrite extends TaskOutcome {
  id: string;
  alertSentAt: Date | null;
  lastExecutionId: string;
  checkJobId: string | null;
}

/**
 * The tasks' side of checking: the rows a check's outcome moves on, and the checks (queue jobs)
 * that each active task waits on. Every statement joins the caller's transaction.
 */
@Injectable()
export class CheckScheduleRepository {
  /**
   * Locks a task of `userId` for a change that leaves its key alone (FOR NO KEY UPDATE, so the
   * foreign-key checks of executions inserted meanwhile do not wait), answering what decides how
   * its run counts; null when there is none.
   */
  async lockTaskOfUser(
    manager: EntityManager,
    taskId: string,
    userId: string,
  ): Promise<VerdictInputs | null> {
    const rows = await queryRows<VerdictInputs>(
      manager,
      `SELECT page_rule AS "pageRule", pages, notify_behavior AS "notifyBehavior" FROM tasks
       WHERE id = $1 AND user_id = $2 FOR NO KEY UPDATE`,
      [taskId, userId],
    );
    return rows[0] ?? null;
  }

  /**
   * Locks the tasks of a claim in id order (FOR NO KEY UPDATE, so the foreign-key checks of the
   * executions it inserts do not wait on anyone); with `skipLocked`, tasks another transaction
   * holds are left out. Only tasks of active users are claimed (docs/api.md, "Admin"). Returns the ids
   * locked.
   */
  async lockForClaim(
    manager: EntityManager,
    taskIds: string[],
    skipLocked: boolean,
  ): Promise<string[]> {
    if (taskIds.length === 0) return [];
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT t.id FROM tasks t JOIN users u ON u.id = t.user_id
       WHERE t.id = ANY($1::uuid[]) AND u.state = 'active'
       ORDER BY t.id FOR NO KEY UPDATE OF t${skipLocked ? ' SKIP LOCKED' : ''}`,
      [taskIds],
    );
    return rows.map((row) => row.id);
  }

  /** Which of these tasks exist and belong to an active user (read, not locked). */
  async claimableTasks(manager: EntityManager, taskIds: string[]): Promise<string[]> {
    if (taskIds.length === 0) return [];
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT t.id FROM tasks t JOIN users u ON u.id = t.user_id
       WHERE t.id = ANY($1::uuid[]) AND u.state = 'active'`,
      [taskIds],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Locks the tasks of a result batch in id order, so concurrent batches cannot deadlock. FOR NO
   * KEY UPDATE: the tasks' keys stay, so rows inserted for them meanwhile do not wait.
   */
  lockForOutcomes(manager: EntityManager, taskIds: string[]): Promise<LockedTask[]> {
    return queryRows<LockedTask>(
      manager,
      `SELECT id, state, notify_behavior, notifications, last_known_state, check_job_id,
         consecutive_failures, failure_alerted, evidence, alert_execution_id, alert_policy,
         alert_sent_at, page_check_interval_ms::float8 AS page_check_interval_ms,
         page_quiet_checks FROM tasks
       WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`,
      [taskIds],
    );
  }

  /** Writes the outcomes of a batch of checks to their tasks in one statement. */
  async applyOutcomes(manager: EntityManager, writes: TaskOutcomeWrite[]): Promise<void> {
    if (writes.length === 0) return;
    await manager.query(
      `UPDATE tasks t SET
         last_execution_id = u.last_execution_id,
         last_known_state = u.last_known_state::jsonb,
         state = u.state,
         state_changed_at = CASE WHEN u.state_changed THEN now() ELSE t.state_changed_at END,
         next_run = CASE WHEN u.keep_check_job THEN t.next_run ELSE u.next_run END,
         check_job_id = CASE WHEN u.keep_check_job THEN t.check_job_id ELSE u.check_job_id END,
         consecutive_failures = u.consecutive_failures,
         failure_alerted = u.failure_alerted,
         alert_execution_id = u.alert_execution_id,
         alert_sent_at = coalesce(u.alert_sent_at, t.alert_sent_at),
         -- A new standing alert starts unacknowledged, without reminders (docs/attention.md).
         alert_notified_at = CASE WHEN u.alert_execution_id IS NULL THEN NULL
           WHEN u.alert_execution_id IS DISTINCT FROM t.alert_execution_id THEN now()
           ELSE t.alert_notified_at END,
         alert_acknowledged_at = CASE
           WHEN u.alert_execution_id IS DISTINCT FROM t.alert_execution_id THEN NULL
           ELSE t.alert_acknowledged_at END,
         alert_repeats_sent = CASE
           WHEN u.alert_execution_id IS DISTINCT FROM t.alert_execution_id THEN 0
           ELSE t.alert_repeats_sent END,
         -- Only a check without a model moves its task's pace (docs/pages.md); null leaves it.
         page_check_interval_ms = coalesce(u.page_check_interval_ms, t.page_check_interval_ms),
         page_quiet_checks = coalesce(u.page_quiet_checks, t.page_quiet_checks)
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::boolean[], $6::timestamptz[], $7::uuid[], $8::boolean[], $9::int[], $10::boolean[], $11::uuid[], $12::timestamptz[], $13::bigint[], $14::int[])
         AS u(id, last_execution_id, last_known_state, state, state_changed, next_run, check_job_id, keep_check_job,
           consecutive_failures, failure_alerted, alert_execution_id, alert_sent_at,
           page_check_interval_ms, page_quiet_checks)
       WHERE t.id = u.id`,
      [
        writes.map((write) => write.id),
        writes.map((write) => write.lastExecutionId),
        writes.map((write) =>
          write.lastKnownState === null ? null : JSON.stringify(write.lastKnownState),
        ),
        writes.map((write) => write.state),
        writes.map((write) => write.stateChanged),
        writes.map((write) => write.nextRun?.toISOString() ?? null),
        writes.map((write) => write.checkJobId),
        writes.map((write) => write.keepSchedule),
        writes.map((write) => write.consecutiveFailures),
        writes.map((write) => write.failureAlerted),
        writes.map((write) => write.alertExecutionId),
        writes.map((write) => write.alertSentAt?.toISOString() ?? null),
        writes.map((write) => write.pagePace?.intervalMs ?? null),
        writes.map((write) => write.pagePace?.quietChecks ?? null),
      ],
    );
  }

  /**
   * Up to `limit` scheduled check jobs that a worker took more than `staleAfterSeconds` ago
   * without ever creating their execution (read, not locked: their tasks are locked first).
   */
  findUnclaimedChecks(
    manager: EntityManager,
    staleAfterSeconds: number,
    limit: number,
  ): Promise<Array<{ id: string; task_id: string }>> {
    return queryRows<{ id: string; task_id: string }>(
      manager,
      `SELECT j.id, (j.data ->> 'taskId')::uuid AS task_id FROM ${QUEUE_SCHEMA}.job j
       WHERE j.name = $1 AND j.state = 'active' AND j.started_on < now() - make_interval(secs => $2)
         AND j.data ->> 'executionId' IS NULL
         AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.job_id = j.id)
       LIMIT $3`,
      [CHECK_QUEUE, staleAfterSeconds, limit],
    );
  }

  /** Locks those of these check jobs still active and unclaimed, in id order, skipping held ones. */
  async lockUnclaimedChecks(manager: EntityManager, jobIds: string[]): Promise<string[]> {
    if (jobIds.length === 0) return [];
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT j.id FROM ${QUEUE_SCHEMA}.job j
       WHERE j.name = $1 AND j.id = ANY($2::uuid[]) AND j.state = 'active'
         AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.job_id = j.id)
       ORDER BY j.id FOR UPDATE OF j SKIP LOCKED`,
      [CHECK_QUEUE, jobIds],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Locks the active tasks (of active users) whose current check is the given job, in id order
   * (FOR NO KEY UPDATE); returns their ids.
   */
  async lockActiveAwaiting(
    manager: EntityManager,
    checks: Array<{ taskId: string; jobId: string }>,
  ): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT t.id FROM tasks t JOIN unnest($1::uuid[], $2::uuid[]) AS j(task_id, job_id)
         ON t.id = j.task_id AND t.check_job_id = j.job_id
       JOIN users u ON u.id = t.user_id
       WHERE t.state = 'active' AND u.state = 'active' ORDER BY t.id FOR NO KEY UPDATE OF t`,
      [checks.map((check) => check.taskId), checks.map((check) => check.jobId)],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Locks up to `limit` active tasks whose check is overdue (by minutes, or that have no
   * `next_run`), with no live check job and no run in flight; returns their ids. Looking only at
   * overdue tasks keeps this an index range scan (ix_tasks_active_next_run) however many tasks
   * there are.
   */
  async lockUnscheduled(manager: EntityManager, limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT t.id FROM tasks t
       WHERE t.state = 'active'
         AND EXISTS (SELECT 1 FROM users u WHERE u.id = t.user_id AND u.state = 'active')
         AND (t.next_run IS NULL OR t.next_run < now() - interval '2 minutes')
         AND NOT EXISTS (
           SELECT 1 FROM ${QUEUE_SCHEMA}.job j
           WHERE j.name = $1 AND j.id = t.check_job_id AND j.state IN ('created', 'retry', 'active'))
         AND NOT EXISTS (
           SELECT 1 FROM executions e
           WHERE e.task_id = t.id AND e.status IN ('pending', 'running', 'retrying'))
       ORDER BY t.id
       LIMIT $2 FOR NO KEY UPDATE OF t SKIP LOCKED`,
      [CHECK_QUEUE, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Sets each task's check job (`jobIds` in the order of `taskIds`) and its next_run. */
  async assignChecks(
    manager: EntityManager,
    taskIds: string[],
    jobIds: string[],
    nextRun: Date,
  ): Promise<void> {
    await manager.query(
      `UPDATE tasks SET check_job_id = j.job_id, next_run = $3
       FROM unnest($1::uuid[], $2::uuid[]) AS j(task_id, job_id) WHERE tasks.id = j.task_id`,
      [taskIds, jobIds, nextRun],
    );
  }
}
