/**
 * Page monitors' checks (issue "Page monitors", speed and memory), against the built service:
 *  A. PAGES_DUE (default 2,000) page tasks, one 100 kB HTML page each on a local page server,
 *     checked once (the baseline), then due again with every page unchanged: checks/s with two
 *     instances, duplicates, missed, and the model calls the stand-in answered (0 expected). Run
 *     with validators (ETag: a 304 each) and without (each page read and compared again).
 *  B. The same tasks with every page changed before the measured round (every check calls the
 *     zero-latency model stand-in), taking turns with as many search checks (no pages): the
 *     ratio of their checks/s.
 *  C. One instance reading 200 pages of 5 MB at once (one check each, the pages spread over 50
 *     loopback hosts so that no host's limit of 4 fetches holds them back, only the instance's
 *     limit of pages at once): the worker's RSS, sampled from /proc every 100 ms.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Pool } from 'pg';
import { GeminiStandIn, checkReply } from '../test/support/gemini-stand-in';
import { CHECK_QUEUE } from '../src/scheduler/job-queue.service';
import { MAX_PAGE_BYTES } from '../src/pages/fetching/page-fetcher';
import { PAGES_AT_ONCE } from '../src/pages/page-stage.service';
import {
  awaitChecks,
  cataloguePage,
  createDatabase,
  freePort,
  machineLine,
  openQueue,
  seedDueTasks,
  spawnService,
  startServer,
  writeBenchmarkSection,
  type Outcome,
  type Seeded,
  type SeededTaskFields,
  type ServiceProcess,
} from './bench-support';
import { postgresCpuSeconds, processCpuSeconds } from './notifications-cpu';

const PAGES_DUE = Number(process.env.BENCH_PAGES_DUE ?? 2000);
const ROUNDS = Number(process.env.BENCH_PAGES_ROUNDS ?? 3);
const CONCURRENCY = process.env.BENCH_WORKER_CONCURRENCY ?? '200';
const PAGE_BYTES = 100_000;
/** Just under the most of a body a page check reads (the page server adds a head). */
const BIG_PAGE_BYTES = MAX_PAGE_BYTES - 10_000;
const BIG_PAGES = 200;
const BIG_PAGE_HOSTS = 50;
const SOURCES = [{ uri: 'https://www.shop.example/products/42', title: 'Example product' }];

/**
 * Pages `/p/<n>` on loopback addresses: a head naming the page and the current `edition`, then a
 * shared body. With `validators` each answer has an ETag and a matching If-None-Match gets 304.
 */
class BenchPageServer {
  edition = 1;
  validators = false;
  port = 0;
  private readonly servers: Server[] = [];

  constructor(private readonly body: Buffer) {}

  async start(hosts = 1): Promise<this> {
    this.port = await freePort();
    for (let host = 1; host <= hosts; host++) {
      const server = createServer((request, response) => this.answer(request, response));
      server.keepAliveTimeout = 60_000;
      await new Promise<void>((resolve) => server.listen(this.port, `127.0.0.${host}`, resolve));
      this.servers.push(server);
    }
    return this;
  }

  url(n: number, host = 1): string {
    return `http://127.0.0.${host}:${this.port}/p/${n}`;
  }

  async stop(): Promise<void> {
    for (const server of this.servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const n = (request.url ?? '').slice('/p/'.length);
    const etag = `"${n}-${this.edition}"`;
    if (this.validators && request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag }).end();
      return;
    }
    const head = Buffer.from(
      `<!doctype html><html><head><title>Page ${n}</title></head><body><h1>Page ${n}, edition ${this.edition}</h1>\n`,
    );
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': head.length + this.body.length,
      ...(this.validators ? { etag } : {}),
    });
    response.write(head);
    response.end(this.body);
  }
}

interface Instances {
  pool: Pool;
  services: ServiceProcess[];
  close(): Promise<void>;
}

async function startInstances(
  adminUrl: string,
  name: string,
  gemini: GeminiStandIn,
  count: number,
): Promise<Instances & { boss: Awaited<ReturnType<typeof openQueue>>['boss'] }> {
  const databaseUrl = await createDatabase(adminUrl, `bench_pages_${name}`);
  const env = {
    DATABASE_URL: databaseUrl,
    GEMINI_API_KEY: gemini.apiKey,
    GEMINI_BASE_URL: gemini.baseUrl,
    WORKER_CONCURRENCY: CONCURRENCY,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  const services: ServiceProcess[] = [];
  for (let index = 0; index < count; index++) services.push(await spawnService(env));
  const { pool, boss } = await openQueue(databaseUrl);
  return {
    pool,
    boss,
    services,
    async close() {
      await boss.stop({ graceful: false, close: true });
      await pool.end();
      for (const service of services) await service.stop();
    },
  };
}

/** Makes every task's next check due `leadMs` from now (the checks already run scheduled one each). */
async function makeDueAgain(pool: Pool, leadMs: number): Promise<Seeded> {
  const dueAt = new Date(Date.now() + leadMs);
  const jobs = await pool.query(
    `UPDATE pgboss.job SET start_after = $1 WHERE name = $2 AND state = 'created'`,
    [dueAt.toISOString(), CHECK_QUEUE],
  );
  await pool.query(`UPDATE tasks SET next_run = $1 WHERE state = 'active'`, [dueAt.toISOString()]);
  return { dueAt, due: jobs.rowCount ?? 0 };
}

interface Round {
  outcome: Outcome;
  /** Model calls the stand-in answered during the measured round. */
  modelCalls: number;
  /** Page statuses the measured round's checks read. */
  statuses: Record<string, number>;
  /** CPU the measured round cost per check: the instances, PostgreSQL, the bench's own servers. */
  cpuMs: { instances: number; postgres: number; bench: number };
}

/**
 * Measures the CPU that `work` costs each process involved, per check: unlike checks/s this does
 * not move with what else the machine runs meanwhile.
 */
async function measuredCpu<T extends { outcome: Outcome }>(
  adminUrl: string,
  services: ServiceProcess[],
  checks: number,
  work: () => Promise<T>,
): Promise<T & { cpuMs: Round['cpuMs'] }> {
  const postgresPort = Number(new URL(adminUrl).port);
  const instancesCpu = () => services.reduce((sum, s) => sum + processCpuSeconds(s.child.pid), 0);
  const benchCpu = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  const before = [instancesCpu(), postgresCpuSeconds(postgresPort), benchCpu()];
  const result = await work();
  const after = [instancesCpu(), postgresCpuSeconds(postgresPort), benchCpu()];
  const perCheck = (index: number) => ((after[index] - before[index]) * 1000) / checks;
  return {
    ...result,
    cpuMs: { instances: perCheck(0), postgres: perCheck(1), bench: perCheck(2) },
  };
}

/**
 * Two instances, PAGES_DUE tasks checked once (all pages new), then due again after `between`
 * (which may change the pages): the second round measured.
 */
async function pageRound(
  adminUrl: string,
  gemini: GeminiStandIn,
  pages: BenchPageServer,
  name: string,
  between: () => void,
): Promise<Round> {
  const run = await startInstances(adminUrl, name, gemini, 2);
  try {
    const fields: SeededTaskFields = { pageUrl: (n) => pages.url(n) };
    const first = await seedDueTasks(run.pool, run.boss, PAGES_DUE, PAGES_DUE, 1500, fields);
    await awaitChecks(run.pool, first, 300_000);
    between();
    const again = await makeDueAgain(run.pool, 1500);
    const callsBefore = gemini.requestCount;
    const { outcome, cpuMs } = await measuredCpu(adminUrl, run.services, again.due, async () => ({
      outcome: await awaitChecks(run.pool, again, 300_000),
    }));
    const { rows } = await run.pool.query<{ status: string; count: number }>(
      `SELECT r->>'status' AS status, count(*)::int AS count
       FROM executions, jsonb_array_elements(page_results) r WHERE created_at >= $1 GROUP BY 1`,
      [again.dueAt.toISOString()],
    );
    return {
      outcome,
      modelCalls: gemini.requestCount - callsBefore,
      statuses: Object.fromEntries(rows.map((row) => [row.status, row.count])),
      cpuMs,
    };
  } finally {
    await run.close();
  }
}

/** Two instances, PAGES_DUE search tasks (no pages) due at once. */
async function searchRound(adminUrl: string, gemini: GeminiStandIn): Promise<Round> {
  const run = await startInstances(adminUrl, 'search', gemini, 2);
  try {
    const seeded = await seedDueTasks(run.pool, run.boss, PAGES_DUE, PAGES_DUE, 1500);
    const callsBefore = gemini.requestCount;
    const { outcome, cpuMs } = await measuredCpu(adminUrl, run.services, seeded.due, async () => ({
      outcome: await awaitChecks(run.pool, seeded, 300_000),
    }));
    return { outcome, modelCalls: gemini.requestCount - callsBefore, statuses: {}, cpuMs };
  } finally {
    await run.close();
  }
}

/** One instance, BIG_PAGES checks of 5 MB pages due at once: the worker's RSS while they run. */
async function bigPagesRss(
  adminUrl: string,
  gemini: GeminiStandIn,
): Promise<{ outcome: Outcome; maxKb: number; beforeKb: number; failures: string }> {
  const pages = await new BenchPageServer(cataloguePage(BIG_PAGE_BYTES, '')).start(BIG_PAGE_HOSTS);
  const run = await startInstances(adminUrl, 'big', gemini, 1);
  try {
    const fields = { pageUrl: (n: number) => pages.url(n, 1 + (n % BIG_PAGE_HOSTS)) };
    const beforeKb = await run.services[0].rssKb();
    const seeded = await seedDueTasks(run.pool, run.boss, BIG_PAGES, BIG_PAGES, 1500, fields);
    let maxKb = beforeKb;
    const sampler = setInterval(
      () =>
        void run.services[0].rssKb().then((kb) => {
          maxKb = Math.max(maxKb, kb);
        }),
      100,
    );
    const outcome = await awaitChecks(run.pool, seeded, 300_000);
    clearInterval(sampler);
    const { rows } = await run.pool.query<{ error_message: string; count: number }>(
      `SELECT error_message, count(*)::int AS count FROM executions WHERE status = 'failed'
       GROUP BY 1 ORDER BY 2 DESC`,
    );
    const failures = rows.map((row) => `${row.count} × "${row.error_message}"`).join(', ');
    return { outcome, maxKb, beforeKb, failures };
  } finally {
    await run.close();
    await pages.stop();
  }
}

function median(rounds: Round[]): Round {
  const sorted = [...rounds].sort((a, b) => a.outcome.checksPerSecond - b.outcome.checksPerSecond);
  return sorted[Math.floor(sorted.length / 2)];
}

function row(label: string, round: Round): string {
  const { outcome } = round;
  const statuses = Object.entries(round.statuses)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  const cpu = [round.cpuMs.instances, round.cpuMs.postgres, round.cpuMs.bench]
    .map((ms) => ms.toFixed(2))
    .join(' / ');
  return `| ${label} | ${outcome.checksPerSecond.toFixed(0)} | ${outcome.seconds.toFixed(2)} | ${outcome.duplicates} | ${outcome.missed} | ${round.modelCalls} | ${statuses || '–'} | ${cpu} |`;
}

async function main(): Promise<void> {
  const load = (await import('node:os')).loadavg()[0].toFixed(2);
  const only = process.env.BENCH_PAGES_ONLY;
  const server = await startServer();
  const gemini = await new GeminiStandIn().start();
  gemini.recordRequests = false;
  gemini.respondWith(checkReply({ sources: SOURCES }));
  const pages = await new BenchPageServer(cataloguePage(PAGE_BYTES, '')).start();
  try {
    const rows: string[] = [];
    const notes: string[] = [];
    if (!only || only === 'unchanged') {
      const withValidators: Round[] = [];
      const withoutValidators: Round[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        pages.validators = true;
        withValidators.push(await pageRound(server.adminUrl, gemini, pages, 'etag', () => {}));
        pages.validators = false;
        withoutValidators.push(await pageRound(server.adminUrl, gemini, pages, 'plain', () => {}));
      }
      rows.push(
        row(`${PAGES_DUE} due, unchanged, ETag (304 each)`, median(withValidators)),
        row(
          `${PAGES_DUE} due, unchanged, no validators (each body fetched again)`,
          median(withoutValidators),
        ),
      );
    }
    if (!only || only === 'changed') {
      const changed: Round[] = [];
      const search: Round[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        changed.push(
          await pageRound(server.adminUrl, gemini, pages, 'changed', () => {
            pages.edition += 1;
          }),
        );
        search.push(await searchRound(server.adminUrl, gemini));
      }
      const pageRun = median(changed);
      const searchRun = median(search);
      rows.push(
        row(`${PAGES_DUE} due, every page changed (one model call each)`, pageRun),
        row(`${PAGES_DUE} due, search checks (no pages)`, searchRun),
      );
      notes.push(
        `Changed pages against search checks: ${((pageRun.outcome.checksPerSecond / searchRun.outcome.checksPerSecond) * 100).toFixed(0)} % of the search checks/s.`,
      );
    }
    if (!only || only === 'rss') {
      const big = await bigPagesRss(server.adminUrl, gemini);
      notes.push(
        `${BIG_PAGES} checks of ${BIG_PAGE_BYTES / 1e6} MB pages due at once on one instance (${BIG_PAGE_HOSTS} loopback hosts, so only the instance's limit of ${PAGES_AT_ONCE} pages at once holds them back): worker RSS ${(big.beforeKb / 1024).toFixed(0)} MiB before, max ${(big.maxKb / 1024).toFixed(0)} MiB while they ran (sampled every 100 ms); ${big.outcome.checksPerSecond.toFixed(1)} checks/s, ${big.outcome.missed} without a successful check${big.failures ? ` (failed: ${big.failures})` : ''}.`,
      );
    }
    const body = [
      `Measured ${machineLine()}; load average ${load} at the start; two instances of the built service, WORKER_CONCURRENCY=${CONCURRENCY}; pages of ${PAGE_BYTES / 1000} kB HTML from a local page server on 127.0.0.1 (one host: at most 4 fetches at a time per instance); model: the local Gemini stand-in answering at once. Each row is the median of ${ROUNDS} runs; the page and search runs take turns. A run checks every task once (every page new), then makes them due again and measures that round.`,
      '',
      '| scenario | checks/s | seconds | duplicates | missed | model calls | page statuses | CPU ms per check: instances / PostgreSQL / page server and model stand-in |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      ...notes.flatMap((note) => [note, '']),
    ].join('\n');
    console.log(body);
    if (!only) await writeBenchmarkSection('Page monitors: checks', body);
  } finally {
    await pages.stop();
    await gemini.stop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
