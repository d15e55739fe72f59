import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DeclaredQueues } from './declared-queues.service';
import { JobQueueHealthIndicator } from './job-queue.health-indicator';
import { JobQueueService } from './job-queue.service';
import { PeriodicJobs } from '../common/periodic-jobs/periodic-jobs.service';
import { QueueRepository } from './queue.repository';
import { WorkerRepository } from './worker.repository';
import { WorkerHeartbeatService } from './worker-heartbeat.service';
import { WorkerIdentity } from './worker-identity';

@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    JobQueueService,
    DeclaredQueues,
    JobQueueHealthIndicator,
    QueueRepository,
    WorkerIdentity,
    WorkerHeartbeatService,
    PeriodicJobs,
    WorkerRepository,
  ],
  exports: [JobQueueService, DeclaredQueues, QueueRepository, WorkerIdentity, PeriodicJobs],
})
export class SchedulerModule {}
