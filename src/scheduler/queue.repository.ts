import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type PgBoss from 'pg-boss';
import type { Pool, PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { CHECK_QUEUE, QUEUE_SCHEMA, type CheckJobData } from './queues';

export interface QueueJobRow {
  id: string;
  name: string;
  state: string;
  singleton_key: string | null;
  data: CheckJobData;
  start_after: Date;
  started_on: Date | null;
  created_on: Date;
  retry_count: number;
}

export interface QueueJobCount {
  queue: string;
  state: string;
  jobs: number;
}

/**
 * The queue's database side: the connections pg-boss runs its statements on, and read-only SQL on
 * its tables. Changes to jobs go through pg-boss (JobQueueService).
 */
@Injectable()
export class QueueRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The application's pool, so the queue opens no connections of its own. */
  poolConnection(): PgBoss.Db {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    return { executeSql: (text: string, values: unknown[]) => pool.query(text, values) };
  }

  /** The caller's transaction, so a job commits or rolls back with the change it goes with. */
  transactionConnection(manager: EntityManager): PgBoss.Db {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive)
      throw new Error('JobQueueService needs an active transaction');
    // The pg client the TypeORM transaction runs on: pg-boss then joins that transaction.
    const client = (runner as unknown as { databaseConnection: PoolClient }).databaseConnection;
    return { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
  }

  /** The check jobs waiting or running, by start time, and how many there are. */
  async pageOfPendingChecks(
    limit: number,
    offset: number,
  ): Promise<{ jobs: QueueJobRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.dataSource.query<QueueJobRow[]>(
        `SELECT id, name, state, singleton_key, data, start_after, started_on, created_on, retry_count
         FROM ${QUEUE_SCHEMA}.job
         WHERE name = $1 AND state IN ('created', 'retry', 'active')
         ORDER BY start_after, id
         LIMIT $2 OFFSET $3`,
        [CHECK_QUEUE, limit, offset],
      ),
      this.dataSource.query<Array<{ total: number }>>(
        `SELECT count(*)::int AS total FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
        [CHECK_QUEUE],
      ),
    ]);
    return { jobs: rows, total: count[0]?.total ?? 0 };
  }

  /**
   * Jobs by queue and state, for `monitor_queue_jobs`. A scan of the live job table (archived
   * jobs are elsewhere): no index serves a full count, and the metrics cache it for a few seconds.
   */
  countJobsByState(): Promise<QueueJobCount[]> {
    return this.dataSource.query<QueueJobCount[]>(
      `SELECT name AS queue, state::text AS state, count(*)::int AS jobs
       FROM ${QUEUE_SCHEMA}.job
       GROUP BY name, state`,
    );
  }
}
