import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { HEALTH_CHECK_TIMEOUT_MS } from '../health/database.health-indicator';
import { HealthCheckRegistry } from '../health/health-check.registry';
import { JobQueueService } from './job-queue.service';

/** `job_queue` of `GET /health`: pg-boss is running and its tables answer. */
@Injectable()
export class JobQueueHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly queue: JobQueueService,
    health: HealthCheckRegistry,
  ) {
    health.register('job_queue', (key) =>
      this.indicator
        .check(key)
        .attempt(() => this.queue.ping())
        .withTimeout(HEALTH_CHECK_TIMEOUT_MS),
    );
  }
}
