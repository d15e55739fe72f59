import { Inject } from '@nestjs/common';
import { ConfigValidationError, EnvReader, type Env } from './env-reader';

/**
 * One feature's part of the configuration: the variables it reads, their defaults and its own
 * rules, declared beside the feature's code (`scheduler/scheduler.config.ts`). The composition
 * root lists the slices; `readConfig` reads them all and reports every bad variable at once.
 */
export interface ConfigSlice<T> {
  readonly name: string;
  /** Injects the slice's value: `@InjectConfig(schedulerConfig)`. */
  readonly token: symbol;
  read(env: EnvReader): T;
}

export function defineConfig<T>(name: string, read: (env: EnvReader) => T): ConfigSlice<T> {
  return { name, token: Symbol(`${name} config`), read };
}

export type ConfigOf<S> = S extends ConfigSlice<infer T> ? T : never;

export type ConfigSlices = Record<string, ConfigSlice<unknown>>;

/** The values of a set of slices, under the same keys. */
export type ConfigValues<S extends ConfigSlices> = { [K in keyof S]: ConfigOf<S[K]> };

/**
 * Reads every slice before it judges, so start-up fails with one message that lists every bad
 * variable instead of stopping at the first.
 */
export function readConfig<S extends ConfigSlices>(env: Env, slices: S): ConfigValues<S> {
  const reader = new EnvReader(env);
  const values = Object.fromEntries(
    Object.entries(slices).map(([key, slice]) => [key, slice.read(reader)]),
  );
  if (reader.problems.length > 0) throw new ConfigValidationError(reader.problems);
  return values as ConfigValues<S>;
}

/** Injects one slice's value (a feature receives its own part, not the whole configuration). */
export function InjectConfig(slice: ConfigSlice<unknown>): ParameterDecorator {
  return Inject(slice.token);
}
