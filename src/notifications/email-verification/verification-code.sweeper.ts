import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { deleteInBatches } from '../../common/periodic-jobs/batched-deletion';
import { PeriodicJobs } from '../../common/periodic-jobs/periodic-jobs.service';
import { EmailVerificationRepository } from './email-verification.repository';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Removes pending email verifications whose code expired, every 10 minutes, in batches
 * (docs/operations.md, "Retention"): any instance may, and an expired code is refused meanwhile.
 */
@Injectable()
export class VerificationCodeSweeper implements OnModuleInit {
  constructor(
    private readonly verifications: EmailVerificationRepository,
    private readonly jobs: PeriodicJobs,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.every('verification-code-cleanup', SWEEP_INTERVAL_MS, () => this.removeExpired());
  }

  /** Returns how many verifications went. */
  removeExpired(): Promise<number> {
    const now = this.clock.now();
    return deleteInBatches((limit) => this.verifications.deleteExpiredCodes(now, limit));
  }
}
