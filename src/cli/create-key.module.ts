import { Module, type DynamicModule } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CONFIG_SLICES, type AppConfig } from '../app.config';
import { ApiKeyRepository } from '../auth/api-key.repository';
import { ApiKeyService } from '../auth/api-key.service';
import { ClockModule } from '../common/clock/clock';
import type { RootLogger } from '../common/logging/root-logger';
import { LoggingModule } from '../common/logging/logging.module';
import { PeriodicJobs } from '../common/periodic-jobs/periodic-jobs.service';
import { AppConfigModule } from '../config/config.module';
import { buildDataSourceOptions } from '../database/data-source-options';
import { DatabaseModule } from '../database/database.module';
import { UsersModule } from '../users/users.module';

/** Connections the command needs: the key's transaction and one spare. */
const POOL_SIZE = 2;

/**
 * What `npm run create-key` runs on: the service's own configuration, users and API key code
 * against the configured database, without HTTP, the queue or the workers.
 */
@Module({})
export class CreateKeyModule {
  static forRoot(config: AppConfig, databaseUrl: string, logger: RootLogger): DynamicModule {
    return {
      module: CreateKeyModule,
      imports: [
        AppConfigModule.forRoot(CONFIG_SLICES, config),
        ClockModule,
        LoggingModule.forRoot(logger),
        ScheduleModule.forRoot(),
        TypeOrmModule.forRoot(buildDataSourceOptions(databaseUrl, POOL_SIZE, logger)),
        DatabaseModule,
        UsersModule,
      ],
      providers: [PeriodicJobs, ApiKeyRepository, ApiKeyService],
    };
  }
}
