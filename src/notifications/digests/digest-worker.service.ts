import {
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { InjectConfig } from '../../config/config-slice';
import { DIGEST_QUEUE, JobQueueService } from '../../scheduler/job-queue.service';
import { QueuePuller } from '../../scheduler/queue-puller';
import { schedulerConfig, type SchedulerConfig } from '../../scheduler/scheduler.config';
import type { DigestJobData } from './digest-job';
import { DigestService } from './digest.service';

/** Digest jobs in flight at once in one process (each mostly waits on its receivers). */
const MAX_DIGESTS_IN_FLIGHT = 512;
const MAX_FETCH = 256;

/**
 * Pulls digest jobs from the queue in batches (many periods end in the same minute: every user
 * with the default 08:00) and keeps up to MAX_DIGESTS_IN_FLIGHT going; `WORKER_ENABLED=false`
 * runs none.
 */
@Injectable()
export class DigestWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly puller: QueuePuller<DigestJobData>;

  constructor(
    @InjectConfig(schedulerConfig) private readonly config: SchedulerConfig,
    queue: JobQueueService,
    digests: DigestService,
    @InjectPinoLogger(DigestWorkerService.name) logger: PinoLogger,
  ) {
    this.puller = new QueuePuller<DigestJobData>(queue, logger, {
      queue: DIGEST_QUEUE,
      label: 'digests',
      capacity: MAX_DIGESTS_IN_FLIGHT,
      maxFetch: MAX_FETCH,
      minFetch: MAX_FETCH / 4,
      idleMs: 500,
      run: (jobs, release) => digests.sendBatch(jobs, release),
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.workerEnabled) this.puller.start();
  }

  /** Digests under way finish and are recorded before the queue and the pool close. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.puller.stop();
  }
}
