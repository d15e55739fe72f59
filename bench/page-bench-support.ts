/**
 * What the page benchmarks share: a page server on loopback addresses whose pages change by
 * edition, two instances of the built service against a fresh database, and a measured round of
 * checks (checks/s, model calls, page statuses, and the CPU each process spent per check).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Pool } from 'pg';
import type { GeminiStandIn } from '../test/support/gemini-stand-in';
import { CHECK_QUEUE } from '../src/scheduler/job-queue.service';
import {
  awaitChecks,
  createDatabase,
  freePort,
  openQueue,
  seedDueTasks,
  spawnService,
  type Outcome,
  type Seeded,
  type SeededTaskFields,
  type ServiceProcess,
} from './bench-support';
import { postgresCpuSeconds, processCpuSeconds } from './notifications-cpu';

export const PAGES_DUE = Number(process.env.BENCH_PAGES_DUE ?? 2000);
export const ROUNDS = Number(process.env.BENCH_PAGES_ROUNDS ?? 3);
export const CONCURRENCY = process.env.BENCH_WORKER_CONCURRENCY ?? '200';

/** A page's answer: its content type and body, for page number `n` at `edition`. */
export type PageRender = (n: number, edition: number) => { contentType: string; body: Buffer };

/** A catalogue page: a head naming the page and its edition, then the shared `body`. */
export function catalogueRender(body: Buffer): PageRender {
  return (n, edition) => ({
    contentType: 'text/html; charset=utf-8',
    body: Buffer.concat([
      Buffer.from(
        `<!doctype html><html><head><title>Page ${n}</title></head><body><h1>Page ${n}, edition ${edition}</h1>\n`,
      ),
      body,
    ]),
  });
}

/**
 * Pages `/p/<n>` on loopback addresses, as `render` draws them at the current `edition`. With
 * `validators` each answer has an ETag and a matching If-None-Match gets 304.
 */
export class BenchPageServer {
  edition = 1;
  validators = false;
  port = 0;
  private readonly servers: Server[] = [];

  constructor(private readonly render: PageRender) {}

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
    const n = Number((request.url ?? '').slice('/p/'.length));
    const etag = `"${n}-${this.edition}"`;
    if (this.validators && request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag }).end();
      return;
    }
    const { contentType, body } = this.render(n, this.edition);
    response.writeHead(200, {
      'content-type': contentType,
      'content-length': body.length,
      ...(this.validators ? { etag } : {}),
    });
    response.end(body);
  }
}

export interface Instances {
  pool: Pool;
  boss: Awaited<ReturnType<typeof openQueue>>['boss'];
  services: ServiceProcess[];
  close(): Promise<void>;
}

/** `count` instances of the built service on a fresh database `bench_pages_<name>`. */
export async function startInstances(
  adminUrl: string,
  name: string,
  gemini: GeminiStandIn,
  count: number,
): Promise<Instances> {
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

export interface Round {
  outcome: Outcome;
  /** Model calls the stand-in answered during the measured round. */
  modelCalls: number;
  /** Page statuses the measured round's checks read. */
  statuses: Record<string, number>;
  /** CPU the measured round cost per check: the instances, PostgreSQL, the bench's own servers. */
  cpuMs: { instances: number; postgres: number; bench: number };
  /** Rows the measured round inserted into each table named in `pageRound`'s `countWrites`. */
  writes: Record<string, number>;
}

/**
 * Measures the CPU that `work` costs each process involved, per check: unlike checks/s this does
 * not move with what else the machine runs meanwhile.
 */
export async function measuredCpu<T extends { outcome: Outcome }>(
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

/** The database's next transaction id: rows written from now on carry one at least as large. */
async function nextTransaction(pool: Pool): Promise<bigint> {
  const { rows } = await pool.query<{ next: string }>(
    'SELECT txid_snapshot_xmax(txid_current_snapshot())::text AS next',
  );
  return BigInt(rows[0].next);
}

/**
 * Rows of each of `tables` inserted or updated since transaction `since`, read from the rows'
 * own `xmin` (exact, unlike the statistics, which a busy backend reports up to a minute late).
 * The benchmark's databases are fresh, far from transaction id wraparound.
 */
async function writtenRows(
  pool: Pool,
  tables: string[],
  since: bigint,
): Promise<Record<string, number>> {
  const written: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${table} WHERE xmin::text::bigint >= $1`,
      [since.toString()],
    );
    written[table] = rows[0].count;
  }
  return written;
}

/**
 * Two instances, PAGES_DUE tasks (each with the page `fields.pageUrl` names and `fields`' page
 * entry and rule) checked once (all pages new), then due again after `between` (which may change
 * the pages): the second round measured.
 */
export async function pageRound(
  adminUrl: string,
  gemini: GeminiStandIn,
  name: string,
  fields: SeededTaskFields,
  between: () => void,
  countWrites: string[] = [],
): Promise<Round> {
  const run = await startInstances(adminUrl, name, gemini, 2);
  try {
    const first = await seedDueTasks(run.pool, run.boss, PAGES_DUE, PAGES_DUE, 1500, fields);
    await awaitChecks(run.pool, first, 300_000);
    between();
    const again = await makeDueAgain(run.pool, 1500);
    const callsBefore = gemini.requestCount;
    const measuredFrom = await nextTransaction(run.pool);
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
      writes: await writtenRows(run.pool, countWrites, measuredFrom),
    };
  } finally {
    await run.close();
  }
}

/** The round of median checks/s. */
export function median(rounds: Round[]): Round {
  const sorted = [...rounds].sort((a, b) => a.outcome.checksPerSecond - b.outcome.checksPerSecond);
  return sorted[Math.floor(sorted.length / 2)];
}

export const ROUND_TABLE_HEAD = [
  '| scenario | checks/s | seconds | duplicates | missed | model calls | page statuses | CPU ms per check: instances / PostgreSQL / page server and model stand-in |',
  '|---|---|---|---|---|---|---|---|',
];

/** One row of `ROUND_TABLE_HEAD`'s table. */
export function roundRow(label: string, round: Round): string {
  const { outcome } = round;
  const statuses = Object.entries(round.statuses)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  const cpu = [round.cpuMs.instances, round.cpuMs.postgres, round.cpuMs.bench]
    .map((ms) => ms.toFixed(2))
    .join(' / ');
  return `| ${label} | ${outcome.checksPerSecond.toFixed(0)} | ${outcome.seconds.toFixed(2)} | ${outcome.duplicates} | ${outcome.missed} | ${round.modelCalls} | ${statuses || '–'} | ${cpu} |`;
}

/** A round benchmark's report: its `intro`, the table of `rows`, then each note. */
export function roundReport(intro: string, rows: string[], notes: string[]): string {
  return [intro, '', ...ROUND_TABLE_HEAD, ...rows, '', ...notes.flatMap((note) => [note, ''])].join(
    '\n',
  );
}

/** Two instances, PAGES_DUE search tasks (no pages) due at once. */
export async function searchRound(adminUrl: string, gemini: GeminiStandIn): Promise<Round> {
  const run = await startInstances(adminUrl, 'search', gemini, 2);
  try {
    const seeded = await seedDueTasks(run.pool, run.boss, PAGES_DUE, PAGES_DUE, 1500);
    const callsBefore = gemini.requestCount;
    const { outcome, cpuMs } = await measuredCpu(adminUrl, run.services, seeded.due, async () => ({
      outcome: await awaitChecks(run.pool, seeded, 300_000),
    }));
    return {
      outcome,
      modelCalls: gemini.requestCount - callsBefore,
      statuses: {},
      cpuMs,
      writes: {},
    };
  } finally {
    await run.close();
  }
}
