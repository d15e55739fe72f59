import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../database/sql-rows';
import { DIGEST_QUEUE, QUEUE_SCHEMA } from '../../scheduler/job-queue.service';
import { WORKER_STALE_AFTER_MS } from '../../scheduler/worker-heartbeat.service';
import type { NotificationType } from '../channels/channel-registry';
import type { DeliveryEvent, SendStatus } from '../channels/notification-types';
import type { DeliveryKey } from '../delivery/notification-delivery.repository';
import { FINAL_DIGEST_STATES, type DigestState } from './notification-digest.entity';

/** The final states as an SQL list (constants, not input). */
const FINAL_STATES_SQL = FINAL_DIGEST_STATES.map((state) => `'${state}'`).join(', ');

/** `d.worker_id` names a worker whose heartbeat is recent (`$n`: WORKER_STALE_AFTER_MS in s). */
function workerAlive(parameter: number): string {
  return `EXISTS (SELECT 1 FROM worker_instances w WHERE w.id = d.worker_id
    AND w.heartbeat_at > now() - make_interval(secs => $${parameter}))`;
}

/** A captured event: its delivery waits, `held`, for the digest of its period. */
export interface HeldDigestWrite {
  deliveryId: string;
  executionId: string;
  taskId: string;
  userId: string;
  channel: NotificationType;
  event: DeliveryEvent;
  /** The period's job. */
  jobId: string;
  periodEnd: Date;
  recipient: string;
  heldAt: Date;
}

/** A user's period whose job runs now. */
export interface DigestPeriodKey {
  userId: string;
  periodEnd: Date;
}

/** A held delivery a period's job gathers. */
export interface HeldDeliveryRow extends DeliveryKey {
  user_id: string;
  period_end: Date;
  channel: NotificationType;
}

/** A digest as the gathering writes it: claimed, first attempt, by this worker. */
export interface DigestWrite {
  id: string;
  userId: string;
  channel: NotificationType;
  periodStart: Date;
  periodEnd: Date;
}

/** A digest claimed for an attempt. */
export interface ClaimedDigestRow {
  id: string;
  user_id: string;
  channel: NotificationType;
  period_start: Date;
  period_end: Date;
  attempt: number;
}

/** A held delivery gathered by a digest. */
export interface DigestEventRow extends DeliveryKey {
  digest_id: string;
  event: DeliveryEvent;
}

/** What an attempt of a digest came to. */
export interface DigestOutcomeWrite {
  id: string;
  attempt: number;
  state: DigestState;
  lastError: string | null;
  /** What the held send records of its events become when the digest is final. */
  sendStatus: SendStatus;
}

/** The SQL of digests (docs/attention.md, "Digests"); each statement handles a whole batch. */
@Injectable()
export class DigestRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Of these period jobs (queued by the caller in its transaction), the ones still waiting
   * (`created`), held FOR SHARE until the caller's transaction ends. The queue hands a job out
   * with FOR UPDATE SKIP LOCKED, so a period whose job is held here cannot start before the
   * events captured for it are committed; a job already handed out is not returned, and the
   * caller captures into the next period.
   */
  async lockOpenPeriods(manager: EntityManager, jobIds: string[]): Promise<Set<string>> {
    if (jobIds.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT id FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[])
         AND state = 'created' ORDER BY id FOR SHARE`,
      [DIGEST_QUEUE, [...new Set(jobIds)].sort()],
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Writes captured events as `held` deliveries (attempt 0, `hold_reason` digest) with a `held`
   * send record each, in one statement; an event captured before (its job ran twice) is left as
   * it is and gets no second record.
   */
  async holdForDigest(manager: EntityManager, writes: HeldDigestWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const rows = [...writes].sort((a, b) => (a.deliveryId < b.deliveryId ? -1 : 1));
    await manager.query(
      `WITH v AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::varchar[],
           $6::varchar[], $7::uuid[], $8::timestamptz[], $9::text[], $10::timestamptz[])
           AS v(id, execution_id, task_id, user_id, channel, event, job_id, held_until, recipient,
             held_at)
       ), held AS (
         INSERT INTO notification_deliveries AS d (id, execution_id, task_id, channel, event,
           attempt, state, job_id, held_until, hold_reason)
         SELECT v.id, v.execution_id, v.task_id, v.channel, v.event, 0, 'held', v.job_id,
           v.held_until, 'digest'
         FROM v WHERE EXISTS (SELECT 1 FROM executions e WHERE e.id = v.execution_id)
         ON CONFLICT (id) DO NOTHING
         RETURNING d.id
       )
       INSERT INTO notification_sends (user_id, task_id, execution_id, recipient,
         notification_type, status, attempt, created_at, event, delivery_id)
       SELECT v.user_id, v.task_id, v.execution_id, v.recipient, v.channel, 'held', 0, v.held_at,
         v.event, v.id
       FROM v WHERE v.id IN (SELECT id FROM held)`,
      [
        rows.map((row) => row.deliveryId),
        rows.map((row) => row.executionId),
        rows.map((row) => row.taskId),
        rows.map((row) => row.userId),
        rows.map((row) => row.channel),
        rows.map((row) => row.event),
        rows.map((row) => row.jobId),
        rows.map((row) => row.periodEnd),
        rows.map((row) => row.recipient),
        rows.map((row) => row.heldAt),
      ],
    );
  }

  /**
   * The held deliveries these periods gather: their users' events captured for a digest due at
   * or before the period's end and not gathered yet, each for the earliest of the periods.
   * Served by ix_notification_deliveries_held (task, held until).
   */
  findHeldDeliveries(periods: DigestPeriodKey[]): Promise<HeldDeliveryRow[]> {
    if (periods.length === 0) return Promise.resolve([]);
    return queryRows<HeldDeliveryRow>(
      this.dataSource,
      `SELECT DISTINCT ON (d.id) d.id AS "deliveryId", d.execution_id AS "executionId",
         t.user_id, v.period_end, d.channel
       FROM unnest($1::uuid[], $2::timestamptz[]) AS v(user_id, period_end)
       JOIN tasks t ON t.user_id = v.user_id
       JOIN notification_deliveries d ON d.task_id = t.id AND d.hold_reason = 'digest'
         AND d.held_until <= v.period_end
       WHERE d.state = 'held' AND d.digest_id IS NULL
       ORDER BY d.id, v.period_end`,
      [periods.map((period) => period.userId), periods.map((period) => period.periodEnd)],
    );
  }

  /**
   * Creates the digests (claimed by this worker for their first attempt; one that exists is
   * left as it is) and points the held deliveries at them; a delivery gathered already keeps
   * its digest.
   */
  async gather(
    manager: EntityManager,
    workerId: string,
    digests: DigestWrite[],
    attachments: Array<{ deliveryId: string; digestId: string }>,
  ): Promise<void> {
    if (digests.length === 0) return;
    const rows = [...digests].sort((a, b) => (a.id < b.id ? -1 : 1));
    await manager.query(
      `INSERT INTO notification_digests (id, user_id, channel, period_start, period_end, state,
         attempt, worker_id)
       SELECT v.*, 'sending', 1, $6::uuid
       FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::timestamptz[], $5::timestamptz[])
         AS v(id, user_id, channel, period_start, period_end)
       ON CONFLICT (id) DO NOTHING`,
      [
        rows.map((row) => row.id),
        rows.map((row) => row.userId),
        rows.map((row) => row.channel),
        rows.map((row) => row.periodStart),
        rows.map((row) => row.periodEnd),
        workerId,
      ],
    );
    const attached = [...attachments].sort((a, b) => (a.deliveryId < b.deliveryId ? -1 : 1));
    await manager.query(
      `UPDATE notification_deliveries d SET digest_id = v.digest_id, updated_at = now()
       FROM unnest($1::uuid[], $2::uuid[]) AS v(id, digest_id)
       WHERE d.id = v.id AND d.state = 'held' AND d.digest_id IS NULL`,
      [attached.map((row) => row.deliveryId), attached.map((row) => row.digestId)],
    );
  }

  /**
   * Ends held digest deliveries that no digest can send (their channel was removed from the
   * task) as `skipped`, their held send records too.
   */
  async skipHeld(manager: EntityManager, deliveryIds: string[], reason: string): Promise<void> {
    if (deliveryIds.length === 0) return;
    await manager.query(
      `WITH skipped AS (
         UPDATE notification_deliveries SET state = 'skipped', last_error = $2, updated_at = now()
         WHERE id = ANY($1::uuid[]) AND state = 'held'
         RETURNING id
       )
       UPDATE notification_sends SET status = 'skipped', error_message = $2
       WHERE status = 'held' AND delivery_id IN (SELECT id FROM skipped)`,
      [[...deliveryIds].sort(), reason],
    );
  }

  /**
   * Claims the first attempts of these periods' digests for this worker: the ones it made now,
   * and the ones whose worker died mid-send (sent again, with the same ids). Returns them, and
   * the periods with a first attempt still under way on another live worker.
   */
  async claimFirstAttempts(
    manager: EntityManager,
    workerId: string,
    periods: DigestPeriodKey[],
  ): Promise<{ claimed: ClaimedDigestRow[]; busy: DigestPeriodKey[] }> {
    const parameters = [
      periods.map((period) => period.userId),
      periods.map((period) => period.periodEnd),
      workerId,
      WORKER_STALE_AFTER_MS / 1000,
    ];
    const periodsTable = 'unnest($1::uuid[], $2::timestamptz[]) AS v(user_id, period_end)';
    const ofPeriods = `d.user_id = v.user_id AND d.period_end = v.period_end
       AND d.state = 'sending' AND d.attempt = 1`;
    const claimed = await queryRows<ClaimedDigestRow>(
      manager,
      `UPDATE notification_digests d SET worker_id = $3, updated_at = now()
       FROM ${periodsTable}
       WHERE ${ofPeriods} AND (d.worker_id = $3 OR NOT ${workerAlive(4)})
       RETURNING d.id, d.user_id, d.channel, d.period_start, d.period_end, d.attempt`,
      parameters,
    );
    const busy = await queryRows<{ user_id: string; period_end: Date }>(
      manager,
      `SELECT DISTINCT d.user_id, d.period_end FROM notification_digests d, ${periodsTable}
       WHERE ${ofPeriods} AND d.worker_id <> $3 AND ${workerAlive(4)}`,
      parameters,
    );
    return {
      claimed,
      busy: busy.map((row) => ({ userId: row.user_id, periodEnd: row.period_end })),
    };
  }

  /**
   * Claims later attempts (committed before anything is sent). A digest already final or past
   * the attempt is not claimed; a claim of the same attempt is taken over when its worker is
   * this one or is no longer alive. Returns the claimed digests and the ids of those whose
   * attempt is under way on another live worker.
   */
  async claimAttempts(
    workerId: string,
    attempts: Array<{ digestId: string; attempt: number }>,
  ): Promise<{ claimed: ClaimedDigestRow[]; busy: Set<string> }> {
    if (attempts.length === 0) return { claimed: [], busy: new Set() };
    const rows = await queryRows<ClaimedDigestRow & { busy: boolean }>(
      this.dataSource,
      `WITH v AS (
         SELECT * FROM unnest($1::uuid[], $2::int[]) AS v(id, attempt)
       ), claimed AS (
         UPDATE notification_digests d SET state = 'sending', attempt = v.attempt,
           worker_id = $3, last_error = NULL, updated_at = now()
         FROM v
         WHERE d.id = v.id AND d.state NOT IN (${FINAL_STATES_SQL})
           AND (d.attempt < v.attempt OR (d.attempt = v.attempt AND d.state = 'sending'
             AND (d.worker_id = $3 OR NOT ${workerAlive(4)})))
         RETURNING d.id, d.user_id, d.channel, d.period_start, d.period_end, d.attempt
       )
       SELECT *, false AS busy FROM claimed
       UNION ALL
       SELECT d.id, d.user_id, d.channel, d.period_start, d.period_end, d.attempt, true
       FROM notification_digests d JOIN v ON v.id = d.id
       WHERE d.id NOT IN (SELECT id FROM claimed) AND d.state = 'sending'
         AND d.attempt = v.attempt AND d.worker_id <> $3 AND ${workerAlive(4)}`,
      [
        attempts.map((attempt) => attempt.digestId),
        attempts.map((attempt) => attempt.attempt),
        workerId,
        WORKER_STALE_AFTER_MS / 1000,
      ],
    );
    return {
      claimed: rows.filter((row) => !row.busy),
      busy: new Set(rows.filter((row) => row.busy).map((row) => row.id)),
    };
  }

  /** The held deliveries these digests gathered. */
  loadDigestEvents(digestIds: string[]): Promise<DigestEventRow[]> {
    if (digestIds.length === 0) return Promise.resolve([]);
    return queryRows<DigestEventRow>(
      this.dataSource,
      `SELECT id AS "deliveryId", execution_id AS "executionId", digest_id, event
       FROM notification_deliveries WHERE digest_id = ANY($1::uuid[])`,
      [digestIds],
    );
  }

  /**
   * Writes what attempts came to, for the digests this worker still holds the claim of (an
   * attempt recorded twice changes nothing the second time); a final digest ends its held
   * deliveries in its state and their held send records in `sendStatus`. Returns the digests
   * recorded.
   */
  async recordOutcomes(
    manager: EntityManager,
    workerId: string,
    outcomes: DigestOutcomeWrite[],
  ): Promise<Set<string>> {
    if (outcomes.length === 0) return new Set();
    const rows = [...outcomes].sort((a, b) => (a.id < b.id ? -1 : 1));
    const recorded = await queryRows<{ id: string }>(
      manager,
      `WITH v AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::varchar[], $4::text[], $5::varchar[])
           AS v(id, attempt, state, last_error, send_status)
       ), recorded AS (
         UPDATE notification_digests d SET state = v.state, last_error = v.last_error,
           worker_id = NULL, updated_at = now()
         FROM v
         WHERE d.id = v.id AND d.state = 'sending' AND d.attempt = v.attempt AND d.worker_id = $6
         RETURNING d.id, v.attempt, v.state, v.last_error, v.send_status
       ), deliveries AS (
         UPDATE notification_deliveries nd SET state = r.state, last_error = r.last_error,
           updated_at = now()
         FROM recorded r
         WHERE nd.digest_id = r.id AND r.state IN (${FINAL_STATES_SQL})
         RETURNING nd.id, r.attempt, r.last_error, r.send_status
       ), held AS (
         UPDATE notification_sends s SET status = dl.send_status, error_message = dl.last_error,
           attempt = dl.attempt
         FROM deliveries dl
         WHERE s.delivery_id = dl.id AND s.status = 'held'
       )
       SELECT id FROM recorded`,
      [
        rows.map((row) => row.id),
        rows.map((row) => row.attempt),
        rows.map((row) => row.state),
        rows.map((row) => row.lastError),
        rows.map((row) => row.sendStatus),
        workerId,
      ],
    );
    return new Set(recorded.map((row) => row.id));
  }
}
