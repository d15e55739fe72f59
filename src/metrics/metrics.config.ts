import { defineConfig, type ConfigOf } from '../config/config-slice';

export const metricsConfig = defineConfig('metrics', (read) => ({
  /** Bearer token of `GET /metrics`; null: metrics answer only with `AUTH_DISABLED`. */
  metricsToken: read.optional('METRICS_TOKEN'),
}));
export type MetricsConfig = ConfigOf<typeof metricsConfig>;
