import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { DatabasePingRepository } from './database-ping.repository';

export const HEALTH_CHECK_TIMEOUT_MS = 3000;

/** PostgreSQL answers a round trip within the health check's timeout. */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly database: DatabasePingRepository,
  ) {}

  isHealthy(key: string): PromiseLike<HealthIndicatorResult> {
    return this.indicator
      .check(key)
      .attempt(() => this.database.ping())
      .withTimeout(HEALTH_CHECK_TIMEOUT_MS);
  }
}
