import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ModelCallKind } from '../search/search.types';
import { QueueJobsCollector } from './queue-jobs.collector';

/** How a check ended, for `monitor_checks_total` (README, "Operations"). */
export type CheckMetricStatus = 'success' | 'failed' | 'cancelled';

export interface CheckMetric {
  status: CheckMetricStatus;
  /** From the claim to the recorded result. */
  durationSeconds: number;
  /** The provider call's priced usage; null when no call was made. */
  usage: { provider: string; cost_usd: number | null } | null;
}

/** Label of requests no route matched: the raw path would give every scanner its own series. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The service's Prometheus metrics (`GET /metrics`, docs/api.md, "Operations"). Each application
 * instance owns its registry: tests boot several instances in one process, and the default
 * registry would refuse the second instance's metrics of the same name.
 */
@Injectable()
export class MetricsService {
  private readonly registry = new Registry();

  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, matched route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly checks = new Counter({
    name: 'monitor_checks_total',
    help: 'Checks that ended, by outcome (cancelled: the execution was cancelled while it ran)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  private readonly checkDuration = new Histogram({
    name: 'monitor_check_duration_seconds',
    help: 'Time from claiming a check to its recorded result (the provider call included)',
    buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
    registers: [this.registry],
  });

  private readonly deliveries = new Counter({
    name: 'monitor_deliveries_total',
    help: 'Notification delivery attempts recorded, by channel and attempt status',
    labelNames: ['channel', 'status'] as const,
    registers: [this.registry],
  });

  private readonly llmCost = new Counter({
    name: 'monitor_llm_cost_usd_total',
    help: 'Priced cost of provider calls (checks, suggestions, previews) in USD, by provider',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });

  private readonly modelCalls = new Counter({
    name: 'monitor_model_calls_total',
    help: 'Calls made to the configured model, by provider and kind (check, preview or suggest)',
    labelNames: ['provider', 'kind'] as const,
    registers: [this.registry],
  });

  private readonly pageFetches = new Counter({
    name: 'monitor_page_fetches_total',
    help: "Pages fetched by page tasks' checks, by page status (new, same, changed, error) and render (http, browser)",
    labelNames: ['status', 'render'] as const,
    registers: [this.registry],
  });

  private readonly browserPagesInFlight = new Gauge({
    name: 'monitor_browser_pages_in_flight',
    help: 'Pages loading in the browser in this instance now',
    registers: [this.registry],
  });

  private readonly checksWithoutModel = new Counter({
    name: 'monitor_checks_without_model_total',
    help: 'Checks of page tasks answered without a model call (a page rule, or unchanged pages)',
    registers: [this.registry],
  });

  constructor(queueJobs: QueueJobsCollector) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'monitor_queue_jobs',
      help: 'Jobs in the durable queue, by queue and state (read at scrape time)',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of await queueJobs.countsByState()) {
          this.set({ queue: row.queue, state: row.state }, row.jobs);
        }
      },
    });
    // Known outcomes start at zero, so a rate over them exists before the first check.
    for (const status of ['success', 'failed', 'cancelled'] as const)
      this.checks.inc({ status }, 0);
  }

  /** The exposition of every metric (Prometheus text format). */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status_code: statusCode }, seconds);
  }

  recordCheck({ status, durationSeconds, usage }: CheckMetric): void {
    this.checks.inc({ status });
    this.checkDuration.observe(durationSeconds);
    this.recordLlmCost(usage);
  }

  recordLlmCost(usage: CheckMetric['usage']): void {
    if (usage !== null && usage.cost_usd !== null && usage.cost_usd > 0) {
      this.llmCost.inc({ provider: usage.provider }, usage.cost_usd);
    }
  }

  recordModelCall(provider: string, kind: ModelCallKind): void {
    this.modelCalls.inc({ provider, kind });
  }

  recordPageFetch(status: string, render: string): void {
    this.pageFetches.inc({ status, render });
  }

  browserPageStarted(): void {
    this.browserPagesInFlight.inc();
  }

  browserPageEnded(): void {
    this.browserPagesInFlight.dec();
  }

  recordCheckWithoutModel(): void {
    this.checksWithoutModel.inc();
  }

  recordDelivery(channel: string, status: string): void {
    this.deliveries.inc({ channel, status });
  }
}
