import { Global, Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { FrameworkLogger } from './framework-logger';
import { LogContext, ROOT_LOGGER } from './log-context';

/**
 * Logging for the whole application on the process's root pino logger (`createRootLogger`):
 * `PinoLogger` everywhere (`@InjectPinoLogger(Context.name)`), Nest's own logger, and the
 * check and delivery contexts. The request logger is the first Express middleware
 * (`requestLogging`, see `createApp`), so nestjs-pino adds none (`useExisting`, no routes).
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(root: Logger): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: { logger: root },
          useExisting: true,
          // No request context (see `requestLogging`).
          forRoutes: [],
        }),
      ],
      providers: [{ provide: ROOT_LOGGER, useValue: root }, LogContext, FrameworkLogger],
      exports: [ROOT_LOGGER, LogContext, FrameworkLogger],
    };
  }
}
