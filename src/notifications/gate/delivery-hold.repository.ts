import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../database/sql-rows';
import type { DeliveryEvent } from '../channels/notification-types';
import type { HoldReason } from '../delivery/notification-delivery.entity';
import {
  heldSendsUpdate,
  sendParameters,
  sendsInsert,
  type SendRecordWrite,
} from '../delivery/notification-delivery.repository';
import type { NotificationConfig, NotificationType } from '../channels/channel-registry';

/** The delivery a held or skipped row is: its id, execution, task, channel, event and job. */
export interface HeldOrSkipped {
  id: string;
  executionId: string;
  taskId: string;
  channel: NotificationType;
  event: DeliveryEvent;
  jobId: string;
}

/** A delivery that waits: its row becomes `held` until `heldUntil`, when `jobId` runs it again. */
export interface HeldDelivery extends HeldOrSkipped {
  heldUntil: Date;
  reason: HoldReason;
  /** Set when it waits for a cooldown (kept through a later hold), and what its release folded. */
  cooldownUntil: Date | null;
  folded: number | null;
  /** Its `held` send record, written when it first waits. */
  send: SendRecordWrite;
}

/** A waiting alert of one cooldown release. */
export interface CooldownWindowRow {
  id: string;
  event: 'condition_met' | 'values_changed';
  occurred_at: Date;
}

/** One cooldown of a task through one channel, ending at `cooldownUntil`. */
export interface CooldownKey {
  taskId: string;
  channel: NotificationType;
  cooldownUntil: Date;
}

/** The alerts that waited for one cooldown, and the task's latest withdrawal. */
export interface CooldownWindow {
  waiting: CooldownWindowRow[];
  withdrawnAt: Date | null;
}

/**
 * A delivery a released one may have to wait for: its channel, its task's configs, its event, and
 * the end of its hold (null while it is being sent).
 */
export interface OpenDeliveryRow {
  id: string;
  channel: NotificationType;
  notifications: NotificationConfig[];
  occurred_at: Date;
  held_until: Date | null;
}

/** The statements of deliveries that wait, are skipped, or are folded (docs/attention.md). */
@Injectable()
export class DeliveryHoldRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Makes deliveries `held` (attempt 0, so the attempt that runs at the end goes) and writes a
   * `held` send record for each that has none yet. A final delivery is left alone.
   */
  async hold(manager: EntityManager, rows: HeldDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    const ordered = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const held = await queryRows<{ id: string }>(
      manager,
      `INSERT INTO notification_deliveries AS d (id, execution_id, task_id, channel, event,
         attempt, state, job_id, held_until, hold_reason, cooldown_until, folded)
       SELECT v.id, v.execution_id, v.task_id, v.channel, v.event, 0, 'held', v.job_id,
         v.held_until, v.hold_reason, v.cooldown_until, v.folded
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::varchar[], $5::varchar[], $6::uuid[],
         $7::timestamptz[], $8::varchar[], $9::timestamptz[], $10::int[])
         AS v(id, execution_id, task_id, channel, event, job_id, held_until, hold_reason,
           cooldown_until, folded)
       ON CONFLICT (id) DO UPDATE SET state = 'held', job_id = excluded.job_id,
         held_until = excluded.held_until, hold_reason = excluded.hold_reason,
         cooldown_until = coalesce(d.cooldown_until, excluded.cooldown_until),
         folded = coalesce(excluded.folded, d.folded), worker_id = NULL, updated_at = now()
       WHERE d.state IN ('held', 'sending', 'retry_scheduled')
       RETURNING d.id`,
      [
        ordered.map((row) => row.id),
        ordered.map((row) => row.executionId),
        ordered.map((row) => row.taskId),
        ordered.map((row) => row.channel),
        ordered.map((row) => row.event),
        ordered.map((row) => row.jobId),
        ordered.map((row) => row.heldUntil.toISOString()),
        ordered.map((row) => row.reason),
        ordered.map((row) => row.cooldownUntil?.toISOString() ?? null),
        ordered.map((row) => row.folded),
      ],
    );
    const written = new Set(held.map((row) => row.id));
    const sends = ordered.filter((row) => written.has(row.id)).map((row) => row.send);
    if (sends.length === 0) return;
    await manager.query(
      `${sendsInsert(0)}
       WHERE NOT EXISTS (SELECT 1 FROM notification_sends n
         WHERE n.delivery_id = s.delivery_id AND n.status = 'held')`,
      sendParameters(sends),
    );
  }

  /**
   * Ends deliveries as `skipped` (a paused config, an alert folded away or made stale): the row,
   * and its `held` send record or a new `skipped` one.
   */
  async skip(
    manager: EntityManager,
    rows: SkippedDelivery[],
    sends: SendRecordWrite[],
  ): Promise<void> {
    if (rows.length === 0) return;
    const ordered = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await manager.query(
      `INSERT INTO notification_deliveries AS d (id, execution_id, task_id, channel, event,
         attempt, state, job_id, last_error)
       SELECT v.id, v.execution_id, v.task_id, v.channel, v.event, 0, 'skipped', v.job_id, v.reason
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::varchar[], $5::varchar[], $6::uuid[],
         $7::text[]) AS v(id, execution_id, task_id, channel, event, job_id, reason)
       ON CONFLICT (id) DO UPDATE SET state = 'skipped', last_error = excluded.last_error,
         worker_id = NULL, updated_at = now()
       WHERE d.state IN ('held', 'sending', 'retry_scheduled')`,
      [
        ordered.map((row) => row.id),
        ordered.map((row) => row.executionId),
        ordered.map((row) => row.taskId),
        ordered.map((row) => row.channel),
        ordered.map((row) => row.event),
        ordered.map((row) => row.jobId),
        ordered.map((row) => row.reason),
      ],
    );
    await manager.query(
      `WITH held AS (${heldSendsUpdate(0)} RETURNING n.delivery_id)
       ${sendsInsert(0)} WHERE s.delivery_id NOT IN (SELECT delivery_id FROM held)`,
      sendParameters(sends),
    );
  }

  /**
   * For each cooldown (a task, a channel and the cooldown's end), in one statement: the alerts
   * that waited for it through that channel, and when the task's condition was last found not
   * met (what makes earlier alerts stale). Answers one window per cooldown, in their order.
   */
  async cooldownWindows(cooldowns: CooldownKey[]): Promise<CooldownWindow[]> {
    if (cooldowns.length === 0) return [];
    const rows = await queryRows<
      Omit<CooldownWindowRow, 'id'> & { id: string | null; n: string; withdrawn_at: Date | null }
    >(
      this.dataSource,
      `SELECT w.n, x.withdrawn_at, d.id, d.event, coalesce(e.completed_at, e.created_at) AS occurred_at
       FROM unnest($1::uuid[], $2::varchar[], $3::timestamptz[])
         WITH ORDINALITY AS w(task_id, channel, cooldown_until, n)
       CROSS JOIN LATERAL (SELECT max(completed_at) AS withdrawn_at FROM executions
         WHERE task_id = w.task_id AND status = 'success' AND condition_met = false) x
       LEFT JOIN (notification_deliveries d JOIN executions e ON e.id = d.execution_id)
         ON d.task_id = w.task_id AND d.cooldown_until = w.cooldown_until
           AND d.channel = w.channel`,
      [
        cooldowns.map((cooldown) => cooldown.taskId),
        cooldowns.map((cooldown) => cooldown.channel),
        cooldowns.map((cooldown) => cooldown.cooldownUntil.toISOString()),
      ],
    );
    const windows = cooldowns.map((): CooldownWindow => ({ waiting: [], withdrawnAt: null }));
    for (const row of rows) {
      const window = windows[Number(row.n) - 1];
      window.withdrawnAt = row.withdrawn_at;
      if (row.id !== null) {
        window.waiting.push({ id: row.id, event: row.event, occurred_at: row.occurred_at });
      }
    }
    return windows;
  }

  /**
   * The deliveries of these users that a delivery released from a hold ending at `until` may have
   * to wait for (docs/attention.md, "Held deliveries keep their order"): held for quiet hours or a
   * cooldown ending no later (released with it or before it; a webhook stays `held` until its
   * attempt is recorded), or an email being sent. Read through the partial index of open
   * deliveries.
   */
  openReleases(userIds: string[], until: Date): Promise<OpenDeliveryRow[]> {
    return queryRows<OpenDeliveryRow>(
      this.dataSource,
      `SELECT d.id, d.channel, t.notifications, coalesce(e.completed_at, e.created_at) AS occurred_at,
         CASE WHEN d.state = 'held' THEN d.held_until END AS held_until
       FROM notification_deliveries d
       JOIN tasks t ON t.id = d.task_id
       JOIN executions e ON e.id = d.execution_id
       WHERE t.user_id = ANY($1::uuid[])
         AND (d.state = 'sending' OR (d.state = 'held'
           AND d.hold_reason IN ('quiet_hours', 'cooldown') AND d.held_until <= $2))`,
      [userIds, until.toISOString()],
    );
  }
}

/** A delivery that ends `skipped`, and why. */
export interface SkippedDelivery extends HeldOrSkipped {
  reason: string;
}
