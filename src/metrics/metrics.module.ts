import { Global, Module } from '@nestjs/common';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { QueueJobsCollector } from './queue-jobs.collector';

/** Prometheus metrics: the features record into `MetricsService`, `GET /metrics` exposes them. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, QueueJobsCollector, MetricsAccessGuard],
  exports: [MetricsService],
})
export class MetricsModule {}
