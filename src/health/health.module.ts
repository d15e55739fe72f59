import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabasePingRepository } from './database-ping.repository';
import { HealthCheckRegistry } from './health-check.registry';
import { HealthController } from './health.controller';

/**
 * `GET /health` on terminus. Modules that own a dependency register a probe of it with
 * `HealthCheckRegistry`, which runs each as a terminus indicator.
 */
@Global()
@Module({
  // HealthCheckRegistry logs failures to the service's JSON log (terminus' own logger would print
  // text lines).
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [HealthCheckRegistry, DatabasePingRepository],
  exports: [HealthCheckRegistry],
})
export class HealthModule {}
