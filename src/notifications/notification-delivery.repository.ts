import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import type { GroundingSource } from '../search/search.types';
import type { NotificationConfig } from '../tasks/task.entity';
import type { DeliveryState } from './notification-delivery.entity';
import type { NotificationType, SendStatus } from './notification-send.entity';

/** An execution and its task, as a delivery needs them. */
export interface DeliveryContextRow {
  execution_id: string;
  task_id: string;
  user_id: string;
  task_name: string;
  search_query: string;
  condition_description: string;
  notifications: NotificationConfig[];
  condition_met: boolean | null;
  answer: string | null;
  reasoning: string | null;
  grounding_sources: GroundingSource[] | null;
  completed_at: Date | null;
  created_at: Date;
}

export interface DeliveryRow {
  id: string;
  state: DeliveryState;
  attempt: number;
  worker_id: string | null;
}

/** A delivery row as a claim (or a final decision taken at claim time) leaves it. */
export interface DeliveryWrite {
  id: string;
  executionId: string;
  taskId: string;
  channel: NotificationType;
  attempt: number;
  state: DeliveryState;
  jobId: string;
  workerId: string | null;
  lastError: string | null;
}

/** How an attempt ended, for the row of its delivery (only if this worker's claim still holds). */
export interface DeliveryOutcomeWrite {
  id: string;
  attempt: number;
  state: DeliveryState;
  /** The job of the next attempt when one is queued, else the job of this one. */
  jobId: string;
  lastError: string | null;
}

export interface SendRecordWrite {
  userId: string;
  taskId: string;
  executionId: string;
  recipient: string;
  notificationType: NotificationType;
  status: SendStatus;
  errorMessage: string | null;
  attempt: number;
  attemptedAt: Date;
}

/**
 * The SQL of the delivery hot path. Each statement handles a whole batch (unnest of arrays), so
 * claiming or recording a hundred attempts costs a handful of round trips, not hundreds.
 */
@Injectable()
export class NotificationDeliveryRepository {
  loadContexts(manager: EntityManager, executionIds: string[]): Promise<DeliveryContextRow[]> {
    return queryRows<DeliveryContextRow>(
      manager,
      `SELECT e.id AS execution_id, t.id AS task_id, t.user_id, t.name AS task_name, t.search_query,
         t.condition_description, t.notifications, e.condition_met, e.answer, e.reasoning,
         e.grounding_sources, e.completed_at, e.created_at
       FROM executions e JOIN tasks t ON t.id = e.task_id
       WHERE e.id = ANY($1::uuid[])
       ORDER BY e.id
       -- Keeps the execution (and so its delivery and send rows) from being deleted under us.
       FOR KEY SHARE OF e`,
      [executionIds],
    );
  }

  /** Returns the executions that still exist, locked against deletion until commit. */
  async lockExecutions(manager: EntityManager, executionIds: string[]): Promise<Set<string>> {
    const rows = await queryRows<{ id: string }>(
      manager,
      'SELECT id FROM executions WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE',
      [executionIds],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** Locks the existing rows of these deliveries for the claim transaction. */
  lockDeliveries(manager: EntityManager, ids: string[]): Promise<DeliveryRow[]> {
    return queryRows<DeliveryRow>(
      manager,
      `SELECT id, state, attempt, worker_id FROM notification_deliveries
       WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
  }

  async writeDeliveries(manager: EntityManager, rows: DeliveryWrite[]): Promise<void> {
    if (rows.length === 0) return;
    await manager.query(
      `INSERT INTO notification_deliveries
         (id, execution_id, task_id, channel, attempt, state, job_id, worker_id, last_error)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::varchar[], $5::int[],
         $6::varchar[], $7::uuid[], $8::uuid[], $9::text[])
       ON CONFLICT (id) DO UPDATE SET attempt = excluded.attempt, state = excluded.state,
         job_id = excluded.job_id, worker_id = excluded.worker_id, last_error = excluded.last_error,
         updated_at = now()`,
      [
        rows.map((row) => row.id),
        rows.map((row) => row.executionId),
        rows.map((row) => row.taskId),
        rows.map((row) => row.channel),
        rows.map((row) => row.attempt),
        rows.map((row) => row.state),
        rows.map((row) => row.jobId),
        rows.map((row) => row.workerId),
        rows.map((row) => row.lastError),
      ],
    );
  }

  /**
   * Ends the attempts this worker still owns and returns their ids. A claim that another worker
   * took over meanwhile (this one was taken for dead) is left alone: its outcome is theirs.
   */
  async finishAttempts(
    manager: EntityManager,
    workerId: string,
    outcomes: DeliveryOutcomeWrite[],
  ): Promise<Set<string>> {
    if (outcomes.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(
      manager,
      `UPDATE notification_deliveries d SET state = v.state, job_id = v.job_id,
         last_error = v.last_error, worker_id = NULL, updated_at = now()
       FROM unnest($1::uuid[], $2::int[], $3::varchar[], $4::uuid[], $5::text[])
         AS v(id, attempt, state, job_id, last_error)
       WHERE d.id = v.id AND d.attempt = v.attempt AND d.state = 'sending' AND d.worker_id = $6
       RETURNING d.id`,
      [
        outcomes.map((outcome) => outcome.id),
        outcomes.map((outcome) => outcome.attempt),
        outcomes.map((outcome) => outcome.state),
        outcomes.map((outcome) => outcome.jobId),
        outcomes.map((outcome) => outcome.lastError),
        workerId,
      ],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** One `notification_sends` row per attempt (contract section 2, "Send record status"). */
  async insertSendRecords(manager: EntityManager, records: SendRecordWrite[]): Promise<void> {
    if (records.length === 0) return;
    await manager.query(
      `INSERT INTO notification_sends
         (user_id, task_id, execution_id, recipient, notification_type, status, error_message,
          attempt, created_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::varchar[],
         $6::varchar[], $7::text[], $8::int[], $9::timestamptz[])`,
      [
        records.map((record) => record.userId),
        records.map((record) => record.taskId),
        records.map((record) => record.executionId),
        records.map((record) => record.recipient),
        records.map((record) => record.notificationType),
        records.map((record) => record.status),
        records.map((record) => record.errorMessage),
        records.map((record) => record.attempt),
        records.map((record) => record.attemptedAt),
      ],
    );
  }

  /**
   * Adds `deliveries.<channel>` to each execution's `notification` object, so the execution
   * shows how its notifications went. Patches are merged per execution by the caller.
   */
  async summariseOnExecutions(
    manager: EntityManager,
    patches: Map<string, Record<string, unknown>>,
  ): Promise<void> {
    if (patches.size === 0) return;
    const ids = [...patches.keys()].sort();
    await manager.query(
      `UPDATE executions e SET notification = jsonb_set(
         COALESCE(e.notification, '{}'::jsonb), '{deliveries}',
         COALESCE(e.notification -> 'deliveries', '{}'::jsonb) || v.patch)
       FROM unnest($1::uuid[], $2::jsonb[]) AS v(id, patch)
       WHERE e.id = v.id`,
      [ids, ids.map((id) => JSON.stringify(patches.get(id)))],
    );
  }
}
