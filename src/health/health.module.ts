import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from './database.health-indicator';
import { DatabasePingRepository } from './database-ping.repository';
import { HealthCheckRegistry } from './health-check.registry';
import { HealthController } from './health.controller';

/**
 * `GET /health` on terminus. Modules that own a dependency register its indicator with
 * `HealthCheckRegistry`, built with terminus' `HealthIndicatorService`.
 */
@Global()
@Module({
  // HealthCheckRegistry logs failures to the service's JSON log (terminus' own logger would print
  // text lines).
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [HealthCheckRegistry, DatabasePingRepository, DatabaseHealthIndicator],
  exports: [HealthCheckRegistry, TerminusModule],
})
export class HealthModule {}
