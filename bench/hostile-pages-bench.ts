/**
 * Hostile pages while the API is loaded: the built service (one instance, workers on) answers
 * `GET /api/v1/tasks/{id}` under autocannon and `GET /health` asked one request at a time, first
 * with nothing else to do, then while checks read hostile pages over and over: 1,000,000 and
 * 200,000 nested `<div>`s (5 MB and 1 MB), 80,000 `<li>` siblings read with
 * `li:nth-child(2)`, and a plain text that alternates between two texts sharing no line (each
 * check compares them). Reported: requests/s and p99 of the task by id, p50 / p99 / worst of
 * /health, and the hostile checks that ended with their pages' statuses.
 *
 * The floor, in a third phase: the same pages read by the service's own `PageReader` in this
 * process (its threads, idle policy and deadline) with nothing of the service around them, each
 * page read again as often as its check runs; what reading on the other core costs the API on
 * this machine, whoever reads.
 *
 * The three phases take turns BENCH_HOSTILE_ROUNDS times (default 3), the hostile checks and
 * the bare reads stopped between them, so that a machine's drift weighs on all alike; each row is
 * the median of its phases. BENCH_HOSTILE_SECONDS (default 10) is each phase's length.
 */
import autocannon from 'autocannon';
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { loadavg } from 'node:os';
import { PinoLogger } from 'nestjs-pino';
import { Pool } from 'pg';
import { readConfig } from '../src/config/config-slice';
import { browserConfig } from '../src/pages/browser/browser.config';
import { pageReaderOptions } from '../src/pages/pages.module';
import { pagesConfig } from '../src/pages/pages.config';
import { PageReader } from '../src/pages/reading/page-reader';
import {
  createDatabase,
  freePort,
  machineLine,
  percentile,
  sleep,
  spawnService,
  startServer,
  writeBenchmarkSection,
  type ServiceProcess,
} from './bench-support';
import { mainThreadCpuSeconds, postgresCpuSeconds, processCpuSeconds } from './notifications-cpu';

const SECONDS = Number(process.env.BENCH_HOSTILE_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_HOSTILE_ROUNDS ?? 3);
const CONNECTIONS = 16;
/** How often /health is asked, one request at a time, during a phase. */
const HEALTH_EVERY_MS = 50;
/** How often a running check's execution is looked at; a bare read waits as long after the last. */
const POLL_MS = 200;
const API_KEY = `sk_${'Hostile0123456789abcdefghijKLMNO'.slice(0, 32)}`;

/** Two texts of 20,000 lines that share none. */
const unrelated = (mark: string) =>
  Array.from({ length: 20_000 }, (_, n) => `${mark}${n}`).join('\n');

interface HostilePage {
  name: string;
  path: string;
  selector?: string;
  contentType: string;
  /** The body of the n-th request (one of two: the page server keeps the bodies of n % 2). */
  body: (n: number) => string;
}

/** Each hostile page's two bodies, built once: the page server's answers and the bare reads'. */
const bodies = new Map<string, string>();
function hostileBody(page: HostilePage, n: number): string {
  const key = `${page.path}:${n % 2}`;
  let body = bodies.get(key);
  if (body === undefined) bodies.set(key, (body = page.body(n)));
  return body;
}

const HOSTILE: HostilePage[] = [
  {
    name: '1,000,000 nested div (5 MB)',
    path: '/nested-5mb',
    contentType: 'text/html',
    body: () => '<div>'.repeat(999_000),
  },
  {
    name: '200,000 nested div (1 MB)',
    path: '/nested-1mb',
    contentType: 'text/html',
    body: () => '<div>'.repeat(200_000),
  },
  {
    name: '80,000 li siblings, li:nth-child(2)',
    path: '/siblings',
    selector: 'li:nth-child(2)',
    contentType: 'text/html',
    // A comment that alternates, so each check reads the page again rather than find it unchanged.
    body: (n) =>
      `<ul>${Array.from({ length: 80_000 }, (_, item) => `<li>item ${item}</li>`).join('')}</ul><!--${n % 2}-->`,
  },
  {
    name: 'two texts sharing no line, in turn',
    path: '/unrelated',
    contentType: 'text/plain',
    body: (n) => unrelated(n % 2 === 0 ? 'a' : 'b'),
  },
];

/** Serves the hostile pages on 127.0.0.1, each body built once per variant. */
async function startPageServer(): Promise<{ origin: string; server: Server }> {
  const served = new Map<string, number>();
  const server = createServer((request, response) => {
    const page = HOSTILE.find((candidate) => candidate.path === request.url);
    if (!page) {
      response.writeHead(404).end();
      return;
    }
    const n = served.get(page.path) ?? 0;
    served.set(page.path, n + 1);
    response.writeHead(200, { 'content-type': `${page.contentType}; charset=utf-8` });
    response.end(hostileBody(page, n));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${port}`, server };
}

async function seedKey(pool: Pool): Promise<void> {
  const { rows } = await pool.query<{ id: string }>(
    "INSERT INTO users (clerk_user_id, email) VALUES ($1, 'hostile-bench@example.com') RETURNING id",
    [`bench_${randomUUID()}`],
  );
  await pool.query(
    `INSERT INTO api_keys (user_id, name, key_hash, key_prefix, state) VALUES ($1, 'bench', $2, $3, 'active')`,
    [rows[0].id, createHash('sha256').update(API_KEY).digest('hex'), `sk_...${API_KEY.slice(-5)}`],
  );
}

async function api<T>(
  service: ServiceProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Runs `step` again and again until `stop()`, which resolves with `result()` once the step under
 * way has ended.
 */
function repeatUntilStopped<T>(
  step: () => Promise<void>,
  result: () => T,
): { stop: () => Promise<T> } {
  let running = true;
  const loop = (async () => {
    while (running) await step();
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return result();
    },
  };
}

/**
 * Checks `taskId` again and again until `stop()`: each run starts once the last has ended, which
 * the benchmark learns from the database (`pool`), so that the API it measures serves only the
 * executes. Returns each ended check's page status (`error: <why>` for an error).
 */
function checkOverAndOver(
  service: ServiceProcess,
  pool: Pool,
  taskId: string,
): { stop: () => Promise<string[]> } {
  const outcomes: string[] = [];
  return repeatUntilStopped(
    async () => {
      const started = await api<{ id: string }>(service, 'POST', `/api/v1/tasks/${taskId}/execute`);
      for (;;) {
        await sleep(POLL_MS);
        const { rows } = await pool.query<{
          status: string;
          page: string | null;
          error: string | null;
        }>(
          `SELECT status, page_results->0->>'status' AS page, page_results->0->>'error' AS error
           FROM executions WHERE id = $1 AND status NOT IN ('pending', 'running', 'retrying')`,
          [started.id],
        );
        if (rows.length === 0) continue;
        const [ended] = rows;
        outcomes.push(ended.error ? `error: ${ended.error}` : (ended.page ?? ended.status));
        return;
      }
    },
    () => outcomes,
  );
}

/**
 * Reads `page` with `reader` again and again until `stop()`, POLL_MS after each read ends, each
 * against the text the last read gave, as a check compares with the page's snapshot. Returns how
 * many reads ended.
 */
function readOverAndOver(reader: PageReader, page: HostilePage): { stop: () => Promise<number> } {
  let reads = 0;
  let previousText: string | null = null;
  return repeatUntilStopped(
    async () => {
      const read = await reader.read(
        {
          kind: 'page',
          contentType: page.contentType,
          charset: 'utf-8',
          selector: page.selector,
          previousText,
        },
        Buffer.from(hostileBody(page, reads)),
      );
      if (read.kind === 'text') previousText = read.text;
      reads += 1;
      await sleep(POLL_MS);
    },
    () => reads,
  );
}

/** Asks /health one request at a time every HEALTH_EVERY_MS until stopped; its latencies. */
function askHealth(service: ServiceProcess): { stop: () => Promise<number[]> } {
  const latencies: number[] = [];
  return repeatUntilStopped(
    async () => {
      const start = performance.now();
      const response = await fetch(`http://127.0.0.1:${service.port}/health`);
      await response.arrayBuffer();
      latencies.push(performance.now() - start);
      await sleep(HEALTH_EVERY_MS);
    },
    () => latencies.sort((a, b) => a - b),
  );
}

interface Phase {
  requestsPerSecond: number;
  p99: number;
  errors: number;
  health: number[];
  cpu: PhaseCpu;
}

/** CPU seconds spent during a phase, by where they went. */
interface PhaseCpu {
  serviceMain: number;
  /** The service's other threads: page reading, libuv, the garbage collector's helpers. */
  serviceThreads: number;
  /** This process's event loop: autocannon, the /health asker and the hostile page server. */
  bench: number;
  /** This process's other threads: the bare reads' threads, libuv, the garbage collector's. */
  benchThreads: number;
  postgres: number;
}

function cpuNow(service: ServiceProcess, postgresPort: number): PhaseCpu {
  const pid = service.child.pid;
  const main = mainThreadCpuSeconds(pid);
  const benchMain = mainThreadCpuSeconds(process.pid);
  return {
    serviceMain: main,
    serviceThreads: processCpuSeconds(pid) - main,
    bench: benchMain,
    benchThreads: processCpuSeconds(process.pid) - benchMain,
    postgres: postgresCpuSeconds(postgresPort),
  };
}

async function phase(
  service: ServiceProcess,
  taskId: string,
  postgresPort: number,
): Promise<Phase> {
  const before = cpuNow(service, postgresPort);
  const health = askHealth(service);
  const result = await autocannon({
    url: `http://127.0.0.1:${service.port}/api/v1/tasks/${taskId}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${API_KEY}` },
  });
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    health: await health.stop(),
    cpu: cpuSince(before, cpuNow(service, postgresPort)),
  };
}

/** The CPU seconds between two readings of cpuNow. */
function cpuSince(before: PhaseCpu, after: PhaseCpu): PhaseCpu {
  return {
    serviceMain: after.serviceMain - before.serviceMain,
    serviceThreads: after.serviceThreads - before.serviceThreads,
    bench: after.bench - before.bench,
    benchThreads: after.benchThreads - before.benchThreads,
    postgres: after.postgres - before.postgres,
  };
}

const ms = (value: number) => `${Math.round(value)}`;

/** The phase of median requests/s among `phases`. */
function medianPhase(phases: Phase[]): Phase {
  const sorted = [...phases].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const database = await startServer();
  const pages = await startPageServer();
  let service: ServiceProcess | null = null;
  let pool: Pool | null = null;
  const readerOptions = pageReaderOptions(
    readConfig(process.env, { pages: pagesConfig }).pages,
    readConfig(process.env, { browser: browserConfig }).browser,
  );
  const bareReader = new PageReader(readerOptions, new PinoLogger({}));
  try {
    const databaseUrl = await createDatabase(database.adminUrl, 'bench_hostile_pages');
    const postgresPort = Number(new URL(databaseUrl).port || 5432);
    pool = new Pool({ connectionString: databaseUrl, max: HOSTILE.length });
    await seedKey(pool);
    service = await spawnService({
      DATABASE_URL: databaseUrl,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_PER_MINUTE: '10000000',
      RATE_LIMIT_PER_HOUR: '10000000',
      RATE_LIMIT_PER_DAY: '10000000',
      RATE_LIMIT_PAGE_CHECKS_PER_HOUR: '10000000',
    });
    const create = (fields: Record<string, unknown>) =>
      api<{ id: string }>(service!, 'POST', '/api/v1/tasks', { state: 'paused', ...fields });
    const read = await create({ search_query: 'Has the benchmark product shipped yet?' });
    const hostile = await Promise.all(
      HOSTILE.map((page) =>
        create({
          search_query: `Watch the hostile page ${page.path}`,
          pages: [{ url: `${pages.origin}${page.path}`, selector: page.selector }],
          page_rule: { type: 'changed' },
        }),
      ),
    );
    const start = `load average ${loadavg()[0].toFixed(2)} at the start`;

    const quietPhases: Phase[] = [];
    const loadedPhases: Phase[] = [];
    const barePhases: Phase[] = [];
    const outcomes: string[][] = HOSTILE.map(() => []);
    const bareReads = HOSTILE.map(() => 0);
    for (let round = 0; round < ROUNDS; round++) {
      quietPhases.push(await phase(service, read.id, postgresPort));
      const checking = hostile.map((task) => checkOverAndOver(service!, pool!, task.id));
      loadedPhases.push(await phase(service, read.id, postgresPort));
      const ended = await Promise.all(checking.map((checks) => checks.stop()));
      ended.forEach((statuses, index) => outcomes[index].push(...statuses));
      const reading = HOSTILE.map((page) => readOverAndOver(bareReader, page));
      barePhases.push(await phase(service, read.id, postgresPort));
      const counts = await Promise.all(reading.map((reads) => reads.stop()));
      counts.forEach((count, index) => (bareReads[index] += count));
    }
    const quiet = medianPhase(quietPhases);
    const loaded = medianPhase(loadedPhases);
    const bare = medianPhase(barePhases);
    const against = (measured: Phase, quietPhase: Phase) =>
      `${Math.round((100 * measured.requestsPerSecond) / quietPhase.requestsPerSecond)} %`;
    const rounds = quietPhases
      .map(
        (quietPhase, index) =>
          `| ${index + 1} | ${Math.round(quietPhase.requestsPerSecond)} | ${Math.round(loadedPhases[index].requestsPerSecond)} | ${against(loadedPhases[index], quietPhase)} | ${Math.round(barePhases[index].requestsPerSecond)} | ${against(barePhases[index], quietPhase)} |`,
      )
      .join('\n');

    const cores = (seconds: number) => (seconds / SECONDS).toFixed(2);
    const row = (name: string, measured: Phase) =>
      `| ${name} | ${Math.round(measured.requestsPerSecond)} | ${measured.p99} | ${ms(percentile(measured.health, 50))} / ${ms(percentile(measured.health, 99))} / ${ms(measured.health[measured.health.length - 1])} | ${measured.health.length} | ${measured.errors} | ${cores(measured.cpu.serviceMain)} / ${cores(measured.cpu.serviceThreads)} / ${cores(measured.cpu.bench)} / ${cores(measured.cpu.benchThreads)} / ${cores(measured.cpu.postgres)} |`;
    const tally = (ended: string[]) =>
      [...new Set(ended)]
        .map((status) => `${ended.filter((one) => one === status).length} × ${status}`)
        .join(', ') || 'none ended';
    const body = `Measured ${machineLine()}, ${start}. Run with \`npm run bench -- hostile\` (\`BENCH_HOSTILE_SECONDS\`, default 10, sets each phase's length; this run: ${SECONDS} s; \`BENCH_HOSTILE_ROUNDS\`, default 3, how often the phases take turns; this run: ${ROUNDS}).

One instance (\`node dist/main.js\`, workers on, \`PAGE_READ_CPU_MS\` at its default) serves
\`GET /api/v1/tasks/{id}\` to autocannon (${CONNECTIONS} connections, ${SECONDS} s) while \`GET /health\` is asked one
request at a time every ${HEALTH_EVERY_MS} ms; in turn with nothing else to do, and while each hostile page's
task (a \`page_rule\`, no model) is checked again (\`POST /api/v1/tasks/{id}/execute\`) as soon as
its last check ends, which the benchmark looks up in the database every ${POLL_MS} ms; and, as the
floor, while the benchmark's own process reads the same pages with the service's \`PageReader\`
(${readerOptions.threads} threads ${readerOptions.chrtPath === null ? 'at nice 10' : 'under the idle policy'}, the same deadline), each page again ${POLL_MS} ms after its last read,
with no fetch, check or database around the reads. Load generator, page server, bare reads and
service share the machine's cores. Each row is the phase of median requests/s.

| phase | task by id req/s | task by id p99 (ms) | /health p50 / p99 / worst (ms) | /health answers | errors or non-2xx | cores busy: service's event loop / its other threads / load generator and page server / bare reads' threads / PostgreSQL |
|---|---|---|---|---|---|---|
${row('quiet', quiet)}
${row('hostile pages read meanwhile', loaded)}
${row('the floor: the same pages read bare meanwhile', bare)}

The task by id's requests/s, round by round:

| round | quiet | hostile pages read meanwhile | hostile against quiet | read bare meanwhile | bare against quiet |
|---|---|---|---|---|---|
${rounds}

Hostile checks that ended during the loaded phases, by page status, and bare reads of each page:

${HOSTILE.map((page, index) => `- ${page.name}: ${tally(outcomes[index])}; ${bareReads[index]} bare reads`).join('\n')}`;
    console.log(body);
    await writeBenchmarkSection('Pages: hostile pages while the API is loaded', body);
  } finally {
    await service?.stop();
    await bareReader.onApplicationShutdown();
    await pool?.end();
    await new Promise<void>((resolve) => pages.server.close(() => resolve()));
    await database.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
