import { Global, Module } from '@nestjs/common';
import { JobQueueService } from './job-queue.service';
import { WorkerHeartbeatService } from './worker-heartbeat.service';
import { WorkerIdentity } from './worker-identity';

@Global()
@Module({
  providers: [JobQueueService, WorkerIdentity, WorkerHeartbeatService],
  exports: [JobQueueService, WorkerIdentity],
})
export class SchedulerModule {}
