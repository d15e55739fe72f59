import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { JsonLogger } from '../common/logging/json-logger';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DELIVERY_QUEUE, JobQueueService, type QueueJob } from '../scheduler/job-queue.service';
import { MAX_DELIVERIES_IN_FLIGHT, type DeliveryAttemptJobData } from './delivery-job';
import { NotificationDeliveryService } from './notification-delivery.service';

const MAX_FETCH = 512;
/**
 * Below this many free slots the loop waits for more instead of fetching a handful of jobs:
 * each fetch sorts every due job (pg-boss), so few large fetches cost far less than many small.
 */
const MIN_FETCH = MAX_FETCH / 2;
const IDLE_POLL_MS = 250;

/**
 * Pulls delivery jobs from the queue in batches and keeps up to MAX_DELIVERIES_IN_FLIGHT of them
 * going. The queue hands each job to one worker (FOR UPDATE SKIP LOCKED), so any number of
 * instances share the work; `WORKER_ENABLED=false` runs none.
 */
@Injectable()
export class DeliveryWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private running = false;
  private loop: Promise<void> | null = null;
  private inFlight = 0;
  private readonly batches = new Set<Promise<void>>();
  private wake: (() => void) | null = null;
  private waitingForSlots = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: JobQueueService,
    private readonly deliveries: NotificationDeliveryService,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.workerEnabled) return;
    this.running = true;
    this.loop = this.pull();
  }

  /**
   * Before anything shuts down: deliveries under way finish and are recorded while the HTTP
   * agents, the queue and the database pool are still open.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.batches]);
  }

  private async pull(): Promise<void> {
    while (this.running) {
      const free = MAX_DELIVERIES_IN_FLIGHT - this.inFlight;
      if (free < MIN_FETCH) {
        await this.pause(IDLE_POLL_MS, true);
        continue;
      }
      let jobs: Array<QueueJob<DeliveryAttemptJobData>> = [];
      try {
        jobs = await this.queue.fetch<DeliveryAttemptJobData>(
          DELIVERY_QUEUE,
          Math.min(free, MAX_FETCH),
        );
      } catch (error) {
        this.logger.warn({ msg: 'Fetching deliveries failed', error: String(error) });
      }
      if (jobs.length === 0) {
        await this.pause(IDLE_POLL_MS, false);
        continue;
      }
      this.start(jobs);
    }
  }

  private start(jobs: Array<QueueJob<DeliveryAttemptJobData>>): void {
    this.inFlight += jobs.length;
    const settled = (): void => {
      this.inFlight -= 1;
      if (this.waitingForSlots && MAX_DELIVERIES_IN_FLIGHT - this.inFlight >= MIN_FETCH) {
        this.wake?.();
      }
    };
    const batch = this.deliveries
      .deliverBatch(jobs, settled)
      .catch((error: unknown) => {
        this.logger.error({ msg: 'Delivery batch crashed', error: String(error) });
      })
      .finally(() => this.batches.delete(batch));
    this.batches.add(batch);
  }

  /** Waits up to `ms`; shutdown ends the wait, and so do freed slots when `forSlots`. */
  private async pause(ms: number, forSlots: boolean): Promise<void> {
    this.waitingForSlots = forSlots;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
    this.wake = null;
    this.waitingForSlots = false;
  }
}
