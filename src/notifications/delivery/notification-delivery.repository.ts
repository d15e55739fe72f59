import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../database/sql-rows';
import type { PageResultLine } from '../../pages/results/page-result-line';
import type { Preferences } from '../../attention/preferences';
import type { OutputValues } from '../../search/output-schema';
import type { GroundingSource } from '../../search/search.types';
import type { ChangeContent, EvidenceContent } from '../content/notification-content';
import type { AlertPolicy } from '../../attention/alert-policy';
import type { NotifyBehavior } from '../../search/search.types';
import { TaskEntity } from '../../tasks/task.entity';
import type { TaskState } from '../../tasks/task-state';
import type { NotificationConfig } from '../channels/channel-registry';
import { DELIVERY_QUEUE, QUEUE_SCHEMA } from '../../scheduler/job-queue.service';
import { WORKER_STALE_AFTER_MS } from '../../scheduler/worker-heartbeat.service';
import {
  FINAL_DELIVERY_STATES,
  type DeliveryState,
  type HoldReason,
} from './notification-delivery.entity';
import type { NotificationType } from '../channels/channel-registry';
import type { DeliveryEvent, SendEvent, SendStatus } from '../channels/notification-types';

/** What one attempt needs: its execution and task, and where its delivery stands. */
export interface AttemptContextRow {
  delivery_id: string;
  execution_id: string;
  task_id: string;
  user_id: string;
  user_email: string | null;
  user_email_verified: boolean;
  /** Deliveries of an inactive user's tasks are not sent (docs/api.md, "Admin"). */
  user_active: boolean;
  /** Null: DEFAULT_PREFERENCES (docs/attention.md, "Preferences"). */
  user_preferences: Preferences | null;
  task_name: string;
  search_query: string;
  condition_description: string;
  notifications: NotificationConfig[];
  status: string;
  error_message: string | null;
  /** The failing streak an alert or a recovery is about (from the execution's decision). */
  consecutive_failures: number | null;
  condition_met: boolean | null;
  claimed_met: boolean | null;
  evidence: EvidenceContent | null;
  output_values: OutputValues | null;
  value_changes: ChangeContent[] | null;
  /** For a retraction: the execution whose notification is withdrawn (from its decision). */
  retracted_execution_id: string | null;
  answer: string | null;
  reasoning: string | null;
  grounding_sources: GroundingSource[] | null;
  page_results: PageResultLine[] | null;
  verdict_execution_id: string | null;
  completed_at: Date | null;
  created_at: Date;
  /** Null when the delivery has no row yet (its first attempt has not been recorded). */
  delivery_state: DeliveryState | null;
  delivery_attempt: number | null;
  /** What attention needs (docs/attention.md): the task's alert. */
  task_state: TaskState;
  notify_behavior: NotifyBehavior;
  alert_policy: AlertPolicy | null;
  alert_execution_id: string | null;
  alert_notified_at: Date | null;
  alert_acknowledged_at: Date | null;
  notification_failures: Partial<Record<NotificationType, number>>;
  /** Set once a cooldown's release folded alerts into this one. */
  folded: number | null;
  /** Why and until when a `held` delivery waits (docs/attention.md, "How deliveries wait"). */
  hold_reason: HoldReason | null;
  held_until: Date | null;
}

export interface DeliveryKey {
  deliveryId: string;
  executionId: string;
}

/** The row a delivery gets when an attempt ends, or when a decision is taken without sending. */
export interface DeliveryWrite {
  id: string;
  executionId: string;
  taskId: string;
  channel: NotificationType;
  event: DeliveryEvent;
  attempt: number;
  state: DeliveryState;
  /** The job of the next attempt when one is queued, else the job of this one. */
  jobId: string;
  lastError: string | null;
}

export interface SendRecordWrite {
  deliveryId: string;
  userId: string;
  taskId: string;
  executionId: string | null;
  recipient: string;
  notificationType: NotificationType;
  event: SendEvent;
  status: SendStatus;
  errorMessage: string | null;
  attempt: number;
  attemptedAt: Date;
}

export interface RecordedAttempts {
  /** Deliveries whose outcome was written by this call. */
  recorded: Set<string>;
  /** Deliveries whose execution is gone (the task was deleted): nothing to record. */
  gone: Set<string>;
}

/** The final states as an SQL list (constants, not input). */
const FINAL_STATES_SQL = FINAL_DELIVERY_STATES.map((state) => `'${state}'`).join(', ');

const DELIVERY_COLUMNS = `$1::uuid[], $2::uuid[], $3::uuid[], $4::varchar[], $5::int[],
  $6::varchar[], $7::uuid[], $8::text[], $9::varchar[]`;
/** The columns DELIVERY_COLUMNS fill, in order. */
const DELIVERY_FIELDS =
  'id, execution_id, task_id, channel, attempt, state, job_id, last_error, event';

/** In delivery id order, so concurrent writers of the same rows lock them in one order. */
function deliveryParameters(unordered: DeliveryWrite[]): unknown[] {
  const rows = [...unordered].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return [
    rows.map((row) => row.id),
    rows.map((row) => row.executionId),
    rows.map((row) => row.taskId),
    rows.map((row) => row.channel),
    rows.map((row) => row.attempt),
    rows.map((row) => row.state),
    rows.map((row) => row.jobId),
    rows.map((row) => row.lastError),
    rows.map((row) => row.event),
  ];
}

/**
 * The send records of `sendParameters` as a row source `s`, their arrays starting after `offset`
 * parameters of the statement it is part of.
 */
export function sendsSource(offset: number): string {
  const at = (index: number) => `$${offset + index}`;
  return `unnest(${at(1)}::uuid[], ${at(2)}::uuid[], ${at(3)}::uuid[], ${at(4)}::uuid[],
           ${at(5)}::text[], ${at(6)}::varchar[], ${at(7)}::varchar[], ${at(8)}::text[],
           ${at(9)}::int[], ${at(10)}::timestamptz[], ${at(11)}::varchar[])
           AS s(delivery_id, user_id, task_id, execution_id, recipient, notification_type, status,
             error_message, attempt, created_at, event)`;
}

/** Inserts the send records of `sendsSource(offset)`; the caller may add a WHERE clause. */
export function sendsInsert(offset: number): string {
  return `INSERT INTO notification_sends (delivery_id, user_id, task_id, execution_id, recipient,
           notification_type, status, error_message, attempt, created_at, event)
         SELECT s.delivery_id, s.user_id, s.task_id, s.execution_id, s.recipient,
           s.notification_type, s.status, s.error_message, s.attempt, s.created_at, s.event
         FROM ${sendsSource(offset)}`;
}

/**
 * Ends the `held` send records of the deliveries of `sendsSource(offset)` with their outcome
 * (docs/attention.md: a held record is updated when its delivery goes out); the caller narrows
 * it with `AND ...` and reads the deliveries updated from `RETURNING n.delivery_id`.
 */
export function heldSendsUpdate(offset: number): string {
  return `UPDATE notification_sends n SET status = s.status, error_message = s.error_message,
           attempt = s.attempt, created_at = s.created_at
         FROM ${sendsSource(offset)}
         WHERE n.delivery_id = s.delivery_id AND n.status = 'held'`;
}

export function sendParameters(sends: SendRecordWrite[]): unknown[] {
  return [
    sends.map((send) => send.deliveryId),
    sends.map((send) => send.userId),
    sends.map((send) => send.taskId),
    sends.map((send) => send.executionId),
    sends.map((send) => send.recipient),
    sends.map((send) => send.notificationType),
    sends.map((send) => send.status),
    sends.map((send) => send.errorMessage),
    sends.map((send) => send.attempt),
    sends.map((send) => send.attemptedAt),
    sends.map((send) => send.event),
  ];
}

/**
 * The SQL of the delivery hot path. Each statement handles a whole batch (unnest of arrays), so
 * a hundred attempts cost a handful of round trips, not hundreds.
 */
@Injectable()
export class NotificationDeliveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Holds these tasks (FOR SHARE, in id order) until the caller's transaction ends: the first lock
   * of every transaction that records deliveries (docs/architecture.md, "One lock order"). A delete
   * or a deactivation of a task (which lock it first too) then waits for the record or goes first,
   * never halfway, and the rows recorded cannot lose the task they refer to. Returns the ids still
   * there.
   */
  async holdTasks(manager: EntityManager, taskIds: string[]): Promise<Set<string>> {
    if (taskIds.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(
      manager,
      'SELECT id FROM tasks WHERE id = ANY($1::uuid[]) ORDER BY id FOR SHARE',
      [[...new Set(taskIds)]],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** A task of `userId` with what a test send needs, read outside any transaction. */
  findTaskOfUser(taskId: string, userId: string): Promise<TaskEntity | null> {
    return this.dataSource.getRepository(TaskEntity).findOneBy({ id: taskId, userId });
  }

  /** One read for a batch of jobs; attempts whose execution is gone have no row. */
  loadAttemptContexts(keys: DeliveryKey[]): Promise<AttemptContextRow[]> {
    return queryRows<AttemptContextRow>(
      this.dataSource,
      `SELECT v.delivery_id, e.id AS execution_id, t.id AS task_id, t.user_id,
         u.email AS user_email, u.email_verified AS user_email_verified,
         u.state = 'active' AS user_active, u.preferences AS user_preferences,
         t.name AS task_name, t.search_query, t.condition_description, t.notifications,
         e.status, e.error_message,
         (e.notification -> 'alert' ->> 'consecutive_failures')::int AS consecutive_failures,
         e.condition_met, e.claimed_met, e.evidence, e.output_values, e.value_changes,
         e.notification -> 'retraction' ->> 'retracted_execution_id' AS retracted_execution_id,
         e.answer, e.reasoning, e.grounding_sources, e.page_results, e.verdict_execution_id,
         e.completed_at, e.created_at,
         d.state AS delivery_state, d.attempt AS delivery_attempt,
         t.state AS task_state, t.notify_behavior, t.alert_policy,
         t.alert_execution_id, t.alert_notified_at, t.alert_acknowledged_at, t.notification_failures,
         d.folded, d.hold_reason, d.held_until
       FROM unnest($1::uuid[], $2::uuid[]) AS v(delivery_id, execution_id)
       JOIN executions e ON e.id = v.execution_id
       JOIN tasks t ON t.id = e.task_id
       JOIN users u ON u.id = t.user_id
       LEFT JOIN notification_deliveries d ON d.id = v.delivery_id`,
      [keys.map((key) => key.deliveryId), keys.map((key) => key.executionId)],
    );
  }

  /**
   * Claims email attempts before anything is sent: the row says `sending`, this worker, this
   * attempt. Returns the deliveries claimed; one already final or past this attempt is not. A
   * claim of this same attempt is taken over when its worker is this one (its outcome could not
   * be recorded) or is no longer alive (it died mid-send): the email then goes out again, with
   * the same Message-ID. A claim of a live worker is left to it.
   */
  async claimAttempts(
    manager: EntityManager,
    workerId: string,
    rows: DeliveryWrite[],
  ): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const claimed = await queryRows<{ id: string }>(
      manager,
      `INSERT INTO notification_deliveries AS d (${DELIVERY_FIELDS}, worker_id)
       SELECT v.*, $10::uuid FROM unnest(${DELIVERY_COLUMNS}) AS v(${DELIVERY_FIELDS})
       ON CONFLICT (id) DO UPDATE SET attempt = excluded.attempt, state = excluded.state,
         job_id = excluded.job_id, last_error = NULL, worker_id = excluded.worker_id,
         updated_at = now()
       WHERE d.state NOT IN (${FINAL_STATES_SQL})
         AND (d.attempt < excluded.attempt
           OR (d.attempt = excluded.attempt AND d.state = 'sending'
             AND (d.worker_id = excluded.worker_id OR NOT EXISTS (
               SELECT 1 FROM worker_instances w
               WHERE w.id = d.worker_id
                 AND w.heartbeat_at > now() - make_interval(secs => $11)))))
       RETURNING d.id`,
      [...deliveryParameters(rows), workerId, WORKER_STALE_AFTER_MS / 1000],
    );
    return new Set(claimed.map((row) => row.id));
  }

  /** Makes this worker the owner of email attempts left `sending` by a worker that died. */
  async takeOverAttempts(manager: EntityManager, workerId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await manager.query(
      `UPDATE notification_deliveries SET worker_id = $2, updated_at = now()
       WHERE id = ANY($1::uuid[]) AND state = 'sending'`,
      [ids, workerId],
    );
  }

  /**
   * Writes the outcome of attempts, with their send records, in one statement. A delivery takes
   * the outcome only when it is not final and the attempt is newer than what it recorded, or is
   * the attempt this worker claimed (email); so an attempt recorded twice (a job that ran again
   * while its first run was still going) gets one send record, not two.
   */
  async recordAttempts(
    manager: EntityManager,
    workerId: string,
    deliveries: DeliveryWrite[],
    sends: SendRecordWrite[],
  ): Promise<RecordedAttempts> {
    if (deliveries.length === 0) return { recorded: new Set(), gone: new Set() };
    const rows = await queryRows<{ id: string; outcome: 'recorded' | 'gone' }>(
      manager,
      `WITH v AS (
         SELECT * FROM unnest(${DELIVERY_COLUMNS}) AS v(${DELIVERY_FIELDS})
       ), gone AS (
         SELECT v.id FROM v WHERE NOT EXISTS (SELECT 1 FROM executions e WHERE e.id = v.execution_id)
       ), recorded AS (
         INSERT INTO notification_deliveries AS d (${DELIVERY_FIELDS})
         SELECT v.* FROM v WHERE v.id NOT IN (SELECT id FROM gone)
         ON CONFLICT (id) DO UPDATE SET attempt = excluded.attempt, state = excluded.state,
           job_id = excluded.job_id, last_error = excluded.last_error, worker_id = NULL,
           updated_at = now()
         WHERE d.state NOT IN (${FINAL_STATES_SQL})
           AND (d.attempt < excluded.attempt
             OR (d.attempt = excluded.attempt AND d.state = 'sending' AND d.worker_id = $10))
         RETURNING d.id
       ), held AS (
         ${heldSendsUpdate(10)} AND s.delivery_id IN (SELECT id FROM recorded)
         RETURNING n.delivery_id
       ), sends AS (
         ${sendsInsert(10)}
         WHERE s.delivery_id IN (SELECT id FROM recorded)
           AND s.delivery_id NOT IN (SELECT delivery_id FROM held)
       )
       SELECT id, 'recorded' AS outcome FROM recorded
       UNION ALL SELECT id, 'gone' AS outcome FROM gone`,
      [...deliveryParameters(deliveries), workerId, ...sendParameters(sends)],
    );
    return {
      recorded: new Set(rows.filter((row) => row.outcome === 'recorded').map((row) => row.id)),
      gone: new Set(rows.filter((row) => row.outcome === 'gone').map((row) => row.id)),
    };
  }

  /** Send records of attempts made outside the queue (test sends), in the caller's transaction. */
  async insertSends(manager: EntityManager, sends: SendRecordWrite[]): Promise<void> {
    if (sends.length === 0) return;
    await manager.query(sendsInsert(0), sendParameters(sends));
  }

  /**
   * Ends every open delivery of a user's tasks as `cancelled` and returns the ids of their queue
   * jobs still to run (queued, waiting for a retry or under way), for the caller to cancel in
   * the same transaction. A delivery whose first attempt has not run yet has no row: it gets a
   * `cancelled` one, so a job that still runs finds it final and sends nothing. Open rows are
   * cancelled after the jobs are read: a row an attempt records in between is cancelled too.
   */
  async cancelOpenDeliveriesOfUser(
    manager: EntityManager,
    userId: string,
    reason: string,
  ): Promise<string[]> {
    const jobs = await queryRows<{ id: string }>(
      manager,
      `WITH jobs AS (
         SELECT j.id, coalesce((j.data ->> 'deliveryId')::uuid, j.id) AS delivery_id,
           (j.data ->> 'executionId')::uuid AS execution_id, (j.data ->> 'taskId')::uuid AS task_id,
           j.data ->> 'channel' AS channel, coalesce((j.data ->> 'attempt')::int, 1) AS attempt,
           coalesce(j.data ->> 'event', 'condition_met') AS event
         FROM ${QUEUE_SCHEMA}.job j
         WHERE j.name = $1 AND j.state IN ('created', 'retry', 'active')
           AND j.data ->> 'taskId' IN (SELECT id::text FROM tasks WHERE user_id = $2)
       ), cancelled AS (
         INSERT INTO notification_deliveries AS d (${DELIVERY_FIELDS})
         SELECT DISTINCT ON (delivery_id) delivery_id, execution_id, task_id, channel, attempt,
           'cancelled', id, $3, event
         FROM jobs WHERE EXISTS (SELECT 1 FROM executions e WHERE e.id = jobs.execution_id)
         ORDER BY delivery_id, attempt DESC
         ON CONFLICT (id) DO UPDATE SET state = 'cancelled', last_error = excluded.last_error,
           worker_id = NULL, updated_at = now()
         WHERE d.state NOT IN (${FINAL_STATES_SQL})
       )
       SELECT id FROM jobs`,
      [DELIVERY_QUEUE, userId, reason],
    );
    // Served by ix_notification_deliveries_open_updated_at (open rows only).
    await manager.query(
      `UPDATE notification_deliveries SET state = 'cancelled', last_error = $2, worker_id = NULL,
         updated_at = now()
       WHERE state IN ('held', 'sending', 'retry_scheduled')
         AND task_id IN (SELECT id FROM tasks WHERE user_id = $1)`,
      [userId, reason],
    );
    // Their waiting send records end as the deliveries do.
    await manager.query(
      `UPDATE notification_sends SET status = 'skipped', error_message = $2
       WHERE user_id = $1 AND status = 'held'`,
      [userId, reason],
    );
    return jobs.map((job) => job.id);
  }
}
