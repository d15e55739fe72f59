import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './app-config';

/**
 * Provides the configuration validated by `loadConfig`. It is read before Nest builds its module
 * graph because the database (embedded or not) has to be ready first, so the same object is
 * handed in here rather than parsed a second time.
 */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
