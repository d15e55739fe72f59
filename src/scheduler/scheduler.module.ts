import { Global, Module } from '@nestjs/common';
import { JobQueueHealthIndicator } from './job-queue.health-indicator';
import { JobQueueService } from './job-queue.service';
import { PeriodicJobs } from '../common/periodic-jobs/periodic-jobs.service';
import { QueueRepository } from './queue.repository';
import { WorkerRepository } from './worker.repository';
import { WorkerHeartbeatService } from './worker-heartbeat.service';
import { WorkerIdentity } from './worker-identity';

@Global()
@Module({
  providers: [
    JobQueueService,
    JobQueueHealthIndicator,
    QueueRepository,
    WorkerIdentity,
    WorkerHeartbeatService,
    PeriodicJobs,
    WorkerRepository,
  ],
  exports: [JobQueueService, QueueRepository, WorkerIdentity, PeriodicJobs],
})
export class SchedulerModule {}
