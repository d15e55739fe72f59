import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { ClockModule } from './common/clock/clock';
import { HttpErrorFilter } from './common/filters/http-error.filter';
import { RouteIndex } from './common/filters/route-index';
import { AccessGuard } from './common/guards/auth.guard';
import { LoggingModule } from './common/logging/logging.module';
import type { RootLogger } from './common/logging/root-logger';
import { RequestValidationPipe } from './common/pipes/request-validation.pipe';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import type { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/config.module';
import { buildDataSourceOptions } from './database/data-source-options';
import { HealthModule } from './health/health.module';
import { PublicModule } from './public/public.module';
import { ExecutionsModule } from './executions/executions.module';
import { SchedulerModule } from './scheduler/scheduler.module';
import { TasksModule } from './tasks/tasks.module';
import { UsersModule } from './users/users.module';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  logger: RootLogger;
}

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl, logger }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        ClockModule,
        LoggingModule.forRoot(logger),
        DiscoveryModule,
        ScheduleModule.forRoot(),
        TypeOrmModule.forRoot(buildDataSourceOptions(databaseUrl, config.databasePoolSize)),
        RateLimitModule,
        HealthModule,
        UsersModule,
        AuthModule,
        SchedulerModule,
        ExecutionsModule,
        TasksModule,
        PublicModule,
        AdminModule,
      ],
      providers: [
        // Order matters: authenticate first, then count the request against the caller's limits.
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        RouteIndex,
        HttpErrorFilter,
        { provide: APP_FILTER, useExisting: HttpErrorFilter },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
      ],
    };
  }
}
