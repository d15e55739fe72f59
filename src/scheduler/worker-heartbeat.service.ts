import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import { PeriodicJobs } from './periodic-jobs.service';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { WorkerIdentity } from './worker-identity';

export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A worker silent for this long is taken for dead and its running checks are recovered. */
export const WORKER_STALE_AFTER_MS = 20_000;

/** Keeps this worker's row in `worker_instances` fresh while the process lives. */
@Injectable()
export class WorkerHeartbeatService implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly identity: WorkerIdentity,
    private readonly jobs: PeriodicJobs,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.workerEnabled) return;
    await this.dataSource.query(
      `INSERT INTO worker_instances (id, hostname, pid) VALUES ($1, $2, $3)`,
      [this.identity.id, hostname().slice(0, 255), process.pid],
    );
    this.jobs.every('worker-heartbeat', HEARTBEAT_INTERVAL_MS, () => this.beat());
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.config.workerEnabled) return;
    await this.dataSource
      .query('DELETE FROM worker_instances WHERE id = $1', [this.identity.id])
      .catch(() => undefined);
  }

  private async beat(): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO worker_instances (id, hostname, pid) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
      [this.identity.id, hostname().slice(0, 255), process.pid],
    );
    await this.dataSource.query(`DELETE FROM worker_instances WHERE heartbeat_at < now() - interval '1 day'`);
  }
}
