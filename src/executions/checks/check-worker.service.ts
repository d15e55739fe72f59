import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { InjectConfig } from '../../config/config-slice';
import { CHECK_QUEUE, JobQueueService, type CheckJobData } from '../../scheduler/job-queue.service';
import { QueuePuller } from '../../scheduler/queue-puller';
import { CheckRunnerService } from './check-runner.service';
import { checkReleaseDeadline } from './claimed-check';
import { schedulerConfig, type SchedulerConfig } from '../../scheduler/scheduler.config';

/** Pulls due checks from the queue and runs up to WORKER_CONCURRENCY at once. */
@Injectable()
export class CheckWorkerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly puller: QueuePuller<CheckJobData>;

  constructor(
    @InjectConfig(schedulerConfig) private readonly config: SchedulerConfig,
    queue: JobQueueService,
    runner: CheckRunnerService,
    @InjectPinoLogger(CheckWorkerService.name) logger: PinoLogger,
  ) {
    this.puller = new QueuePuller<CheckJobData>(queue, logger, {
      queue: CHECK_QUEUE,
      label: 'checks',
      capacity: config.workerConcurrency,
      maxFetch: 50,
      minFetch: 1,
      idleMs: 500,
      // Each check frees its slot when it ends: a slow one does not hold its batch's slots.
      run: (jobs, release) => runner.runBatch(jobs, release),
      // The queue retries them (as soon as the database answers, after an outage); their
      // executions are recovered by the sweeper if need be.
      onCrash: async (jobs) => {
        await queue.failOnceReachable(
          CHECK_QUEUE,
          jobs.map((job) => job.id),
          'batch failed',
          checkReleaseDeadline(jobs),
        );
      },
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.workerEnabled) this.puller.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.puller.stop();
  }
}
