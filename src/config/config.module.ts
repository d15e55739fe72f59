import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { ConfigSlices, ConfigValues } from './config-slice';

/**
 * Provides each slice of the configuration that `readConfig` validated, under the slice's token.
 * It is read before Nest builds its module graph because the database (embedded or not) has to be
 * ready first, so the same values are handed in here rather than parsed a second time.
 */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot<S extends ConfigSlices>(slices: S, values: ConfigValues<S>): DynamicModule {
    const providers = Object.entries(slices).map(([key, slice]) => ({
      provide: slice.token,
      useValue: values[key],
    }));
    return {
      module: AppConfigModule,
      providers,
      exports: providers.map((provider) => provider.provide),
    };
  }
}
