import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { Public } from '../common/decorators/auth.decorators';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsService } from './metrics.service';

/**
 * Prometheus scrape endpoint. Left out of the OpenAPI document: it is for the monitoring system,
 * not API clients, and docs/api.md describes it ("Metrics").
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Public() // the API's credentials do not apply: MetricsAccessGuard checks METRICS_TOKEN
  @UseGuards(MetricsAccessGuard)
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.scrape();
  }
}
