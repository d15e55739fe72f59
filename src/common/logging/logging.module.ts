import { Global, Module, type DynamicModule } from '@nestjs/common';
import { JsonLogger } from './json-logger';

/** Makes the process's one JSON logger injectable everywhere. */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(logger: JsonLogger): DynamicModule {
    return {
      module: LoggingModule,
      providers: [{ provide: JsonLogger, useValue: logger }],
      exports: [JsonLogger],
    };
  }
}
