import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../database/sql-rows';
import { DELIVERY_QUEUE, QUEUE_SCHEMA } from '../../scheduler/job-queue.service';
import { WORKER_STALE_AFTER_MS } from '../../scheduler/worker-heartbeat.service';
import type { NotificationType } from '../channels/channel-registry';
import type { DeliveryEvent } from '../channels/notification-types';

/** An open delivery whose queue job is gone. */
export interface OrphanedDelivery {
  id: string;
  execution_id: string;
  task_id: string;
  channel: NotificationType;
  event: DeliveryEvent;
  state: 'sending' | 'retry_scheduled';
  attempt: number;
  recoveries: number;
}

/** The queries of the delivery-recovery sweeper. */
@Injectable()
export class DeliveryRecoveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Start of the oldest worker that still sends heartbeats, or null when none does. */
  async findOldestLiveWorkerStart(): Promise<Date | null> {
    const [live] = await queryRows<{ oldest: Date | null }>(
      this.dataSource,
      `SELECT min(started_at) AS oldest FROM worker_instances
       WHERE heartbeat_at > now() - make_interval(secs => $1)`,
      [WORKER_STALE_AFTER_MS / 1000],
    );
    return live?.oldest ? new Date(live.oldest) : null;
  }

  /** Ids of at most `limit` active delivery jobs taken before `startedBefore`. */
  async findDeliveryJobsStartedBefore(startedBefore: Date, limit: number): Promise<string[]> {
    const jobs = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT id FROM ${QUEUE_SCHEMA}.job
       WHERE name = $1 AND state = 'active' AND started_on < $2 LIMIT $3`,
      [DELIVERY_QUEUE, startedBefore, limit],
    );
    return jobs.map((job) => job.id);
  }

  /**
   * Locks (skipping rows locked elsewhere) at most `limit` open deliveries untouched for
   * `olderThanSeconds` and without a live queue job, oldest first.
   */
  lockOrphanedDeliveries(
    manager: EntityManager,
    olderThanSeconds: number,
    limit: number,
  ): Promise<OrphanedDelivery[]> {
    // Served by ix_notification_deliveries_open_updated_at.
    return queryRows<OrphanedDelivery>(
      manager,
      `SELECT d.id, d.execution_id, d.task_id, d.channel, d.event, d.state, d.attempt, d.recoveries
       FROM notification_deliveries d
       WHERE d.state IN ('sending', 'retry_scheduled')
         AND d.updated_at < now() - make_interval(secs => $1)
         AND NOT EXISTS (
           SELECT 1 FROM ${QUEUE_SCHEMA}.job j
           WHERE j.name = $2 AND j.id = d.job_id AND j.state IN ('created', 'retry', 'active'))
       ORDER BY d.updated_at
       LIMIT $3 FOR UPDATE OF d SKIP LOCKED`,
      [olderThanSeconds, DELIVERY_QUEUE, limit],
    );
  }

  /** Points each delivery at its new job and counts the recovery. */
  async assignRecoveryJobs(
    manager: EntityManager,
    jobs: Array<{ deliveryId: string; jobId: string }>,
  ): Promise<void> {
    if (jobs.length === 0) return;
    await manager.query(
      `UPDATE notification_deliveries d SET job_id = v.job_id, recoveries = recoveries + 1,
         updated_at = now()
       FROM unnest($1::uuid[], $2::uuid[]) AS v(id, job_id) WHERE d.id = v.id`,
      [jobs.map((job) => job.deliveryId), jobs.map((job) => job.jobId)],
    );
  }

  /** Ends the deliveries as `failed` with `reason`. */
  async abandonDeliveries(manager: EntityManager, ids: string[], reason: string): Promise<void> {
    if (ids.length === 0) return;
    await manager.query(
      `UPDATE notification_deliveries SET state = 'failed', worker_id = NULL, last_error = $2,
         updated_at = now()
       WHERE id = ANY($1::uuid[])`,
      [ids, reason],
    );
  }
}
