import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { deleteInBatches } from '../common/periodic-jobs/batched-deletion';
import { PeriodicJobs } from '../common/periodic-jobs/periodic-jobs.service';
import { IdempotencyRepository } from './idempotency.repository';
import { KEY_LIFETIME_MS } from './idempotency.interceptor';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Removes keys past their 24 hours every 10 minutes, in batches (docs/operations.md,
 * "Retention"): any instance may, and the claim ignores expired keys meanwhile.
 */
@Injectable()
export class IdempotencyKeySweeper implements OnModuleInit {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly jobs: PeriodicJobs,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.every('idempotency-key-cleanup', SWEEP_INTERVAL_MS, () => this.removeExpired());
  }

  /** Returns how many keys went. */
  removeExpired(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - KEY_LIFETIME_MS);
    return deleteInBatches((limit) => this.keys.deleteCreatedBefore(cutoff, limit));
  }
}
