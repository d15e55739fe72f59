import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { Clock } from '../common/clock/clock';
import { deleteInBatches } from '../common/periodic-jobs/batched-deletion';
import { PeriodicJobs } from '../common/periodic-jobs/periodic-jobs.service';
import { InjectConfig } from '../config/config-slice';
import { ExecutionSweepRepository } from '../executions/execution-sweep.repository';
import { retentionConfig, type RetentionConfig } from './retention.config';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes executions older than `EXECUTION_RETENTION_DAYS`, with their send records, every 10
 * minutes in batches, keeping those still referred to (docs/operations.md, "Retention"). Any
 * instance may run it: concurrent runs take disjoint batches.
 */
@Injectable()
export class ExecutionRetentionSweeper implements OnModuleInit {
  constructor(
    @InjectConfig(retentionConfig) private readonly config: RetentionConfig,
    private readonly executions: ExecutionSweepRepository,
    private readonly jobs: PeriodicJobs,
    private readonly clock: Clock,
    @InjectPinoLogger(ExecutionRetentionSweeper.name) private readonly logger: PinoLogger,
  ) {}

  onModuleInit(): void {
    if (this.config.executionRetentionDays > 0)
      this.jobs.every('execution-retention', SWEEP_INTERVAL_MS, () => this.removeExpired());
  }

  /** Returns how many executions went; none when retention is 0 (keep forever). */
  async removeExpired(): Promise<number> {
    const days = this.config.executionRetentionDays;
    if (days === 0) return 0;
    const cutoff = new Date(this.clock.now().getTime() - days * DAY_MS);
    const deleted = await deleteInBatches((limit) => this.executions.deleteExpired(cutoff, limit));
    if (deleted > 0) this.logger.info({ count: deleted }, 'Deleted executions past retention');
    return deleted;
  }
}
