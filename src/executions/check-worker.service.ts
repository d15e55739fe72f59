import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JsonLogger } from '../common/logging/json-logger';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  CHECK_QUEUE,
  JobQueueService,
  type CheckJobData,
  type QueueJob,
} from '../scheduler/job-queue.service';
import { CheckRunnerService } from './check-runner.service';

const IDLE_POLL_MS = 500;
const MAX_FETCH = 50;

/**
 * Pulls due checks from the queue and runs up to WORKER_CONCURRENCY at once. The queue hands each
 * job to one worker (FOR UPDATE SKIP LOCKED), so any number of instances can share the work.
 */
@Injectable()
export class CheckWorkerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private wake: (() => void) | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: JobQueueService,
    private readonly runner: CheckRunnerService,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.workerEnabled) return;
    this.running = true;
    this.loop = this.pull();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async pull(): Promise<void> {
    const concurrency = this.config.workerConcurrency;
    while (this.running) {
      const free = concurrency - this.inFlight.size;
      if (free <= 0) {
        await Promise.race(this.inFlight);
        continue;
      }
      let jobs: Array<QueueJob<CheckJobData>> = [];
      try {
        jobs = await this.queue.fetch<CheckJobData>(CHECK_QUEUE, Math.min(free, MAX_FETCH));
      } catch (error) {
        this.logger.warn({ msg: 'Fetching checks failed', error: String(error) });
      }
      if (jobs.length === 0) {
        await this.idle();
        continue;
      }
      for (const job of jobs) this.start(job);
    }
  }

  private start(job: QueueJob<CheckJobData>): void {
    const task = this.runner
      .run(job)
      .catch(async (error: unknown) => {
        this.logger.error({
          msg: 'Check job crashed',
          jobId: job.id,
          taskId: job.data.taskId,
          error: String(error),
        });
        await this.queue.fail(CHECK_QUEUE, job.id, String(error)).catch(() => undefined);
      })
      .finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, IDLE_POLL_MS);
      const wake = (): void => {
        clearTimeout(timer);
        done();
      };
      function done(): void {
        resolve();
      }
      this.wake = wake;
    });
  }
}
