import {
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { InjectConfig } from '../../config/config-slice';
import { DELIVERY_QUEUE, JobQueueService } from '../../scheduler/job-queue.service';
import { QueuePuller } from '../../scheduler/queue-puller';
import { MAX_DELIVERIES_IN_FLIGHT, type DeliveryAttemptJobData } from './delivery-job';
import { NotificationDeliveryService } from './notification-delivery.service';
import { schedulerConfig, type SchedulerConfig } from '../../scheduler/scheduler.config';

const MAX_FETCH = 512;

/**
 * Pulls delivery jobs from the queue in batches and keeps up to MAX_DELIVERIES_IN_FLIGHT of them
 * going; `WORKER_ENABLED=false` runs none.
 */
@Injectable()
export class DeliveryWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly puller: QueuePuller<DeliveryAttemptJobData>;

  constructor(
    @InjectConfig(schedulerConfig) private readonly config: SchedulerConfig,
    queue: JobQueueService,
    deliveries: NotificationDeliveryService,
    @InjectPinoLogger(DeliveryWorkerService.name) logger: PinoLogger,
  ) {
    this.puller = new QueuePuller<DeliveryAttemptJobData>(queue, logger, {
      queue: DELIVERY_QUEUE,
      label: 'deliveries',
      capacity: MAX_DELIVERIES_IN_FLIGHT,
      maxFetch: MAX_FETCH,
      // Each fetch sorts every due job (pg-boss): wait for room for a large batch.
      minFetch: MAX_FETCH / 2,
      idleMs: 250,
      // Each delivery frees its slot as soon as it is recorded.
      run: (jobs, release) => deliveries.deliverBatch(jobs, release),
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.workerEnabled) this.puller.start();
  }

  /**
   * Before anything shuts down: deliveries under way finish and are recorded while the HTTP
   * agents, the queue and the database pool are still open.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.puller.stop();
  }
}
