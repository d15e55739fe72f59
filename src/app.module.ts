import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminModule } from './admin/admin.module';
import { CONFIG_SLICES, type AppConfig } from './app.config';
import { AuthModule } from './auth/auth.module';
import { ClockModule } from './common/clock/clock';
import { HttpErrorFilter } from './common/filters/http-error.filter';
import { HttpErrorsModule } from './common/filters/http-errors.module';
import { AccessGuard } from './auth/auth.guard';
import { LoggingModule } from './common/logging/logging.module';
import type { RootLogger } from './common/logging/root-logger';
import { OutboundHttpModule } from './common/outbound/outbound-http.module';
import { RequestValidationPipe } from './common/pipes/request-validation.pipe';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { AppConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import { buildDataSourceOptions } from './database/data-source-options';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { McpModule } from './mcp/mcp.module';
import { MetricsModule } from './metrics/metrics.module';
import { PublicModule } from './public/public.module';
import { RetentionModule } from './retention/retention.module';
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
        AppConfigModule.forRoot(CONFIG_SLICES, config),
        ClockModule,
        LoggingModule.forRoot(logger),
        DiscoveryModule,
        HttpErrorsModule,
        ScheduleModule.forRoot(),
        TypeOrmModule.forRoot(
          buildDataSourceOptions(databaseUrl, config.database.poolSize, logger),
        ),
        DatabaseModule,
        OutboundHttpModule.forRoot({
          allowPrivateNetworks: config.notifications.webhookAllowPrivateNetworks,
          dnsServers: config.notifications.dnsServers,
        }),
        RateLimitModule,
        HealthModule,
        MetricsModule,
        UsersModule,
        AuthModule,
        SchedulerModule,
        ExecutionsModule,
        TasksModule,
        PublicModule,
        AdminModule,
        RetentionModule,
        // Off with MCP_ENABLED=false: then /mcp is no route at all (404).
        ...(config.mcp.enabled ? [McpModule] : []),
        // Off with CONSOLE_ENABLED=false: then /console is no route at all (404).
        ...(config.console.enabled ? [ConsoleModule] : []),
      ],
      providers: [
        // Order matters: authenticate first, then count the request against the caller's limits.
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_FILTER, useExisting: HttpErrorFilter },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
      ],
    };
  }
}
