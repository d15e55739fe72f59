import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows, Statement } from '../database/sql-rows';
import { CHECK_QUEUE, QUEUE_SCHEMA } from '../scheduler/job-queue.service';

/** An execution the sweeper took back from a stopped worker. */
export interface AbandonedRun {
  id: string;
  task_id: string;
  job_id: string | null;
  /** It used its attempts: the next one ends it as interrupted instead of running it. */
  exhausted: boolean;
}

/** The decision stored on an execution that ended without a result. */
const FAILED_NOTIFICATION = `'{"notify": false, "reason": "check_failed", "channels": [], "completes_task": false}'::jsonb`;

/**
 * Why an execution past retention stays (docs/operations.md, "Retention"): each entry is a
 * condition on the candidate `e` that keeps it, so another reason is one more entry.
 */
const RETAINED_EXECUTION = [
  // Its check is still under way.
  `e.status IN ('pending', 'running', 'retrying')`,
  // Its task's `last_execution_id`.
  `EXISTS (SELECT 1 FROM tasks t WHERE t.id = e.task_id AND t.last_execution_id = e.id)`,
  // Its task's standing alert: the execution whose met-condition notification stands.
  `EXISTS (SELECT 1 FROM tasks t WHERE t.id = e.task_id AND t.alert_execution_id = e.id)`,
  // Its task's latest successful execution (ix_executions_task_id_created_at).
  `e.status = 'success' AND NOT EXISTS (SELECT 1 FROM executions later
     WHERE later.task_id = e.task_id AND later.status = 'success' AND later.created_at > e.created_at)`,
  // A delivery of it not yet finished (ix_notification_deliveries_execution_id).
  `EXISTS (SELECT 1 FROM notification_deliveries d
     WHERE d.execution_id = e.id AND d.state IN ('sending', 'retry_scheduled'))`,
];

/**
 * Executions created before $1 and not retained, oldest first (ix_executions_created_at), at
 * most $2, passing over rows another transaction holds; their send records and deliveries go
 * with them (`ON DELETE CASCADE`).
 */
const DELETE_EXPIRED = new Statement(
  `WITH expired AS (
     SELECT e.id FROM executions e
     WHERE e.created_at < $1 AND NOT (${RETAINED_EXECUTION.map((keep) => `(${keep})`).join(' OR ')})
     ORDER BY e.created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
   DELETE FROM executions x USING expired WHERE x.id = expired.id
   RETURNING x.id`,
);

/**
 * The statements of the sweeps over `executions`: taking back the runs of stopped workers, failing
 * those whose check job is gone, and deleting those past retention.
 */
@Injectable()
export class ExecutionSweepRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes back up to `limit` executions from workers silent for `staleAfterSeconds`: running ones
   * (never those of `workerId`, the caller's own worker: it is alive, and runs them still), and
   * pending ones whose job such a worker took. Each goes to `retrying`; one that used
   * `maxAttempts` is `exhausted`, with `message`: its next attempt ends it instead of running it.
   */
  releaseAbandoned(
    manager: EntityManager,
    rules: {
      staleAfterSeconds: number;
      limit: number;
      maxAttempts: number;
      message: string;
      workerId: string;
    },
  ): Promise<AbandonedRun[]> {
    return queryRows<AbandonedRun>(
      manager,
      `UPDATE executions e SET status = 'retrying', worker_id = NULL,
         error_message = CASE WHEN e.attempts >= $3 THEN $4 ELSE 'The worker running this check stopped; the check is retried' END
       WHERE e.id IN (
         SELECT x.id FROM executions x
         LEFT JOIN ${QUEUE_SCHEMA}.job j ON j.name = $5 AND j.id = x.job_id
         WHERE (x.status = 'running' AND x.worker_id IS DISTINCT FROM $6::uuid AND NOT EXISTS (
                 SELECT 1 FROM worker_instances w
                 WHERE w.id = x.worker_id AND w.heartbeat_at > now() - make_interval(secs => $1)))
            OR (x.status = 'pending' AND j.state = 'active' AND j.started_on < now() - make_interval(secs => $1))
         LIMIT $2 FOR UPDATE OF x SKIP LOCKED)
       RETURNING e.id, e.task_id, e.job_id, e.attempts >= $3 AS exhausted`,
      [
        rules.staleAfterSeconds,
        rules.limit,
        rules.maxAttempts,
        rules.message,
        CHECK_QUEUE,
        rules.workerId,
      ],
    );
  }

  /**
   * Fails up to `limit` in-flight executions whose check job no longer lives (running ones, and
   * pending or retrying ones older than a minute) with `message`; returns how many.
   */
  async failOrphaned(message: string, limit: number): Promise<number> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE executions SET status = 'failed', completed_at = now(), error_message = $1, worker_id = NULL,
         result = jsonb_build_object('condition_met', NULL, 'error', $1::text),
         notification = ${FAILED_NOTIFICATION}
       WHERE id IN (
         SELECT e.id FROM executions e
         WHERE (e.status = 'running' OR (e.status IN ('pending', 'retrying') AND e.created_at < now() - interval '1 minute'))
           AND NOT EXISTS (
             SELECT 1 FROM ${QUEUE_SCHEMA}.job j
             WHERE j.name = $2 AND j.id = e.job_id AND j.state IN ('created', 'retry', 'active'))
         LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [message, CHECK_QUEUE, limit],
    );
    return rows.length;
  }

  /** Deletes up to `limit` executions past retention (DELETE_EXPIRED); returns how many. */
  async deleteExpired(createdBefore: Date, limit: number): Promise<number> {
    const rows = await queryRows(this.dataSource, DELETE_EXPIRED, [createdBefore, limit]);
    return rows.length;
  }
}
