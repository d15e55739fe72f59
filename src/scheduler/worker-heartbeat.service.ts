import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { hostname } from 'node:os';
import { InjectConfig } from '../config/config-slice';
import { PeriodicJobs } from '../common/periodic-jobs/periodic-jobs.service';
import { WorkerIdentity } from './worker-identity';
import { WorkerRepository } from './worker.repository';
import { schedulerConfig, type SchedulerConfig } from './scheduler.config';

export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A worker silent for this long is taken for dead and its running checks are recovered. */
export const WORKER_STALE_AFTER_MS = 20_000;

/** Keeps this worker's row in `worker_instances` fresh while the process lives. */
@Injectable()
export class WorkerHeartbeatService implements OnModuleInit, OnApplicationShutdown {
  private readonly host = hostname().slice(0, 255);

  constructor(
    @InjectConfig(schedulerConfig) private readonly config: SchedulerConfig,
    private readonly identity: WorkerIdentity,
    private readonly jobs: PeriodicJobs,
    private readonly workers: WorkerRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.workerEnabled) return;
    const sentAt = performance.now();
    await this.workers.register(this.identity.id, this.host, process.pid);
    this.identity.beatStored(sentAt);
    this.jobs.every('worker-heartbeat', HEARTBEAT_INTERVAL_MS, () => this.beat());
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.config.workerEnabled) return;
    await this.workers.remove(this.identity.id).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    const sentAt = performance.now();
    await this.workers.beat(this.identity.id, this.host, process.pid);
    this.identity.beatStored(sentAt);
    await this.workers.deleteSilentForADay();
  }
}
