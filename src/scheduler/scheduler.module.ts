import { Global, Module } from '@nestjs/common';
import { JobQueueService } from './job-queue.service';
import { PeriodicJobs } from './periodic-jobs.service';
import { WorkerHeartbeatService } from './worker-heartbeat.service';
import { WorkerIdentity } from './worker-identity';

@Global()
@Module({
  providers: [JobQueueService, WorkerIdentity, WorkerHeartbeatService, PeriodicJobs],
  exports: [JobQueueService, WorkerIdentity, PeriodicJobs],
})
export class SchedulerModule {}
