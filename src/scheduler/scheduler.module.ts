import { Global, Module } from '@nestjs/common';
import { JobQueueService } from './job-queue.service';
import { PeriodicJobs } from './periodic-jobs.service';
import { WorkerRepository } from './worker.repository';
import { WorkerHeartbeatService } from './worker-heartbeat.service';
import { WorkerIdentity } from './worker-identity';

@Global()
@Module({
  providers: [JobQueueService, WorkerIdentity, WorkerHeartbeatService, PeriodicJobs, WorkerRepository],
  exports: [JobQueueService, WorkerIdentity, PeriodicJobs],
})
export class SchedulerModule {}
