import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PeriodicJobs } from '../../common/periodic-jobs/periodic-jobs.service';
import { InjectConfig } from '../../config/config-slice';
import { schedulerConfig, type SchedulerConfig } from '../../scheduler/scheduler.config';
import { StaleExecutionSweeper } from './stale-execution.sweeper';

const SWEEP_INTERVAL_MS = 5_000;

/**
 * Runs the `StaleExecutionSweeper` every few seconds on an instance that runs checks; the sweeper
 * itself is what one sweep does, which another instance's sweeper can also do on demand.
 */
@Injectable()
export class StaleExecutionSweepTimer implements OnApplicationBootstrap {
  constructor(
    @InjectConfig(schedulerConfig) private readonly config: SchedulerConfig,
    private readonly jobs: PeriodicJobs,
    private readonly sweeper: StaleExecutionSweeper,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.workerEnabled)
      this.jobs.every('stale-executions', SWEEP_INTERVAL_MS, () => this.sweeper.sweep());
  }
}
