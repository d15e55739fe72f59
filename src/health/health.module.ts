import { Global, Module } from '@nestjs/common';
import { DatabasePingRepository } from './database-ping.repository';
import { HealthCheckRegistry } from './health-check.registry';
import { HealthController } from './health.controller';

@Global()
@Module({
  controllers: [HealthController],
  providers: [HealthCheckRegistry, DatabasePingRepository],
  exports: [HealthCheckRegistry],
})
export class HealthModule {}
