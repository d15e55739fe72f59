import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { PeriodicJobs } from '../common/periodic-jobs/periodic-jobs.service';
import { IdempotencyRepository } from './idempotency.repository';
import { KEY_LIFETIME_MS } from './idempotency.interceptor';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Removes keys past their 24 hours (any instance may; the claim ignores them meanwhile). */
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

  removeExpired(): Promise<void> {
    return this.keys.deleteCreatedBefore(new Date(this.clock.now().getTime() - KEY_LIFETIME_MS));
  }
}
