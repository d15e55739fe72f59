import type { NextFunction, Request, Response } from 'express';
import { UNMATCHED_ROUTE, type MetricsService } from './metrics.service';

/**
 * Times every request to its last byte for `http_request_duration_seconds`. The `route` label is
 * the pattern Express matched (`/api/v1/tasks/:id`), never the path: ids and probes would
 * otherwise make a series each.
 */
export function httpMetrics(metrics: MetricsService) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (request.route as { path?: unknown } | undefined)?.path;
      metrics.observeRequest(
        request.method,
        typeof route === 'string' ? route : UNMATCHED_ROUTE,
        response.statusCode,
        seconds,
      );
    });
    next();
  };
}
