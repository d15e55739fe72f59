import { Injectable } from '@nestjs/common';
import { HealthCheckRegistry } from '../health/health-check.registry';
import { JobQueueService } from './job-queue.service';

/** `job_queue` of `GET /health`: pg-boss is running and its tables answer. */
@Injectable()
export class JobQueueHealthIndicator {
  constructor(queue: JobQueueService, health: HealthCheckRegistry) {
    health.register('job_queue', () => queue.ping());
  }
}
