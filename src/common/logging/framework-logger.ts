import { Inject, Injectable } from '@nestjs/common';
import { Logger, PARAMS_PROVIDER_TOKEN, PinoLogger, type Params } from 'nestjs-pino';

/** The framework's start-up chatter: one line per module, controller and route. */
const CHATTER = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Nest's own logger (`app.useLogger`) on pino: what the framework and libraries log through
 * Nest's `Logger` becomes JSON lines like ours, its start-up chatter at `debug` rather than
 * `info` (`LOG_LEVEL`, README).
 */
@Injectable()
export class FrameworkLogger extends Logger {
  constructor(logger: PinoLogger, @Inject(PARAMS_PROVIDER_TOKEN) params: Params) {
    super(logger, params);
  }

  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && CHATTER.has(context))
      super.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}
