/**
 * The API against its bare limit: the service (`dist/main.js`, API only), a bare `node:http`
 * + `pg` handler doing the same work (`bare-api-server.ts`) and the same work on NestJS with
 * nothing of the service's own (`nest-floor-server.ts`, the design card's floor) serve the same
 * database, taking turns, under the same load (autocannon, 64 connections). Reported per route:
 * requests/s, p50 and p99 latency, and the service's and the floor's share of the bare figures.
 * Targets: at least 0.7x the bare requests/s and a p99 within 1.5x of the bare p99, the service's
 * RSS under 250 MB. The reads are checked first: every side must answer the list and the task by
 * id with the service's very bytes, or the run stops. MCP's `list_tasks` is compared with the
 * REST list on the service and on the floor.
 *
 * With BENCH_BASELINE=<a checkout of another commit, built>, it runs only the reads, that build's
 * service taking turns with this one and the bare handler, and writes the section "API against a
 * baseline build": how a change moved the reads, measured in one run on one machine.
 */
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import {
  createDatabase,
  freePort,
  machineLine,
  ROOT,
  sleep,
  spawnService,
  startServer,
  writeBenchmarkSection,
} from './bench-support';

const CONNECTIONS = 64;
const DURATION_S = 10;
const WARMUP_S = 3;
/** Rounds per route, service and bare taking turns; each figure reported is its side's median. */
const ROUNDS = 3;
/** How often a process's RSS is read while it is under load. */
const RSS_SAMPLE_MS = 250;
const BASELINE = process.env.BENCH_BASELINE;
const TASKS = 50;
const API_KEY = `sk_${'Bench0123456789abcdefghijKLMNOPQ'.slice(0, 32)}`;

interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The highest RSS of the serving process during the run, in MB. */
  rssMb: number;
}

async function seed(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    "INSERT INTO users (clerk_user_id, email) VALUES ($1, 'api-bench@example.com') RETURNING id",
    [`bench_${randomUUID()}`],
  );
  const userId = rows[0].id;
  await pool.query(
    `INSERT INTO api_keys (user_id, name, key_hash, key_prefix, state) VALUES ($1, 'bench', $2, $3, 'active')`,
    [userId, createHash('sha256').update(API_KEY).digest('hex'), `sk_...${API_KEY.slice(-5)}`],
  );
  const sentence =
    'The vendor has not announced a date; the latest post repeats the previous roadmap. ';
  for (let index = 0; index < TASKS; index += 1) {
    const task = await pool.query<{ id: string }>(
      `INSERT INTO tasks (user_id, name, search_query, condition_description, state, notifications, last_known_state)
       VALUES ($1, $2, $3, $4, 'paused', $5, $6) RETURNING id`,
      [
        userId,
        `Release watch ${index}`,
        `Has version ${index} of the example product been released?`,
        `Version ${index} of the example product is generally available`,
        JSON.stringify([{ type: 'email', address: 'api-bench@example.com' }]),
        JSON.stringify({ version: `${index}.0`, status: 'announced' }),
      ],
    );
    const execution = await pool.query<{ id: string }>(
      `INSERT INTO executions (task_id, status, trigger, started_at, completed_at, condition_met, answer, reasoning,
         grounding_sources, result, notification, attempts)
       VALUES ($1, 'success', 'scheduled', now(), now(), false, $2, $3, $4, $5, $6, 1) RETURNING id`,
      [
        task.rows[0].id,
        sentence.repeat(5),
        sentence.repeat(5),
        JSON.stringify(
          [1, 2, 3].map((n) => ({
            uri: `https://news.example/${index}/${n}`,
            title: `Source ${n}`,
          })),
        ),
        JSON.stringify({
          condition_met: false,
          answer: sentence,
          reasoning: sentence,
          current_state: { version: `${index}.0` },
        }),
        JSON.stringify({
          notify: false,
          reason: 'condition_not_met',
          channels: [],
          completes_task: false,
        }),
      ],
    );
    await pool.query('UPDATE tasks SET last_execution_id = $2 WHERE id = $1', [
      task.rows[0].id,
      execution.rows[0].id,
    ]);
  }
  await pool.query('ANALYZE');
  return (await pool.query<{ id: string }>('SELECT id FROM tasks ORDER BY created_at LIMIT 1'))
    .rows[0].id;
}

/** A process the benchmark loads: where it listens, and its PID for its RSS. */
interface Server {
  port: number;
  child: ChildProcess;
}

/** Starts one of the comparison handlers (`bench/<file>`) and waits until it answers. */
async function startHandler(file: string, databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js'),
      '--transpile-only',
      join('bench', file),
      String(port),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return { port, child };
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`${file} did not start`);
}

async function rssMb(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function load(
  server: Server,
  route: Route,
  seconds: number,
  connections = CONNECTIONS,
): Promise<Measured> {
  let rss = await rssMb(server.child.pid);
  const sampler = setInterval(() => {
    void rssMb(server.child.pid).then((mb) => (rss = Math.max(rss, mb)));
  }, RSS_SAMPLE_MS);
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${route.path}`,
    method: route.method,
    connections,
    duration: seconds,
    headers: {
      authorization: `Bearer ${API_KEY}`,
      'content-type': 'application/json',
      ...route.headers,
    },
    body: route.body,
    // A fresh Idempotency-Key on every request: each one creates a task, none is a replay.
    requests: route.idempotent
      ? [
          {
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, 'idempotency-key': randomUUID() },
            }),
          },
        ]
      : undefined,
  });
  clearInterval(sampler);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    rssMb: rss,
  };
}

/**
 * Each speed figure's median over the rounds (failures are summed, not taken the median of); the
 * RSS is the highest of all rounds.
 */
function median(rounds: Measured[]): Omit<Measured, 'errors' | 'non2xx'> {
  const middle = (pick: (round: Measured) => number) =>
    rounds.map(pick).sort((a, b) => a - b)[Math.floor(rounds.length / 2)];
  return {
    requestsPerSecond: middle((round) => round.requestsPerSecond),
    p50: middle((round) => round.p50),
    p99: middle((round) => round.p99),
    rssMb: Math.max(...rounds.map((round) => round.rssMb)),
  };
}

interface Route {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  idempotent?: boolean;
  /** Run before each load of the route, on every side. */
  before?: () => Promise<void>;
}

interface Side {
  server: Server;
  route: Route;
}

/** Runs the sides' loads in turns, `ROUNDS` times (after a warm-up each); each side's rounds. */
async function compare(sides: Side[], connections = CONNECTIONS): Promise<Measured[][]> {
  const rounds = sides.map((): Measured[] => []);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, side] of sides.entries()) {
      await side.route.before?.();
      if (round === 0) await load(side.server, side.route, WARMUP_S, connections);
      const measured = await load(side.server, side.route, DURATION_S, connections);
      console.log(index, side.server.port, side.route.name, measured);
      rounds[index].push(measured);
    }
  }
  return rounds;
}

/** The answer's bytes, failing on any status but 200. */
async function answerOf(server: Server, route: Route): Promise<Buffer> {
  const response = await fetch(`http://127.0.0.1:${server.port}${route.path}`, {
    headers: { authorization: `Bearer ${API_KEY}` },
  });
  if (response.status !== 200)
    throw new Error(`${route.name} on port ${server.port} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * Stops the run unless every side answers each read with the service's very bytes: a comparison
 * of different answers would measure different work. Returns the size of each read's answer.
 */
async function assertSameAnswers(sides: Server[], reads: Route[]): Promise<number[]> {
  const sizes: number[] = [];
  for (const route of reads) {
    const [reference, ...others] = await Promise.all(sides.map((side) => answerOf(side, route)));
    for (const [index, other] of others.entries()) {
      if (other.equals(reference)) continue;
      let at = 0;
      while (at < reference.length && reference[at] === other[at]) at += 1;
      throw new Error(
        `${route.name}: port ${sides[index + 1].port} answers other bytes than the service from byte ${at}:\n` +
          `service: ${reference.subarray(Math.max(0, at - 80), at + 80).toString()}\n` +
          `other:   ${other.subarray(Math.max(0, at - 80), at + 80).toString()}`,
      );
    }
    sizes.push(reference.length);
  }
  return sizes;
}

const megabytes = (mb: number) => `${Math.round(mb)} MB`;

const failures = (side: Measured[]) =>
  side.reduce((sum, round) => sum + round.errors + round.non2xx, 0);

/** The service as the benchmark runs it: API only, rate limits so high that they never refuse. */
const SERVICE_ENV = {
  WORKER_ENABLED: 'false',
  RATE_LIMIT_PER_MINUTE: '10000000',
  RATE_LIMIT_PER_HOUR: '10000000',
  RATE_LIMIT_PER_DAY: '10000000',
  // Task creation runs for minutes: the per-user task cap would refuse it after 1,000.
  MAX_TASKS_PER_USER: '0',
};

const LIST: Route = {
  name: `GET /api/v1/tasks (${TASKS} tasks with their last execution)`,
  method: 'GET',
  path: '/api/v1/tasks',
};

function readsOf(taskId: string): Route[] {
  return [LIST, { name: 'GET /api/v1/tasks/{id}', method: 'GET', path: `/api/v1/tasks/${taskId}` }];
}

const sizesLine = (reads: Route[], sizes: number[]) =>
  reads
    .map((route, index) => `${route.name}: ${sizes[index].toLocaleString('en')} bytes`)
    .join('; ');

const loadLine = () => `load average ${loadavg()[0].toFixed(2)} at the start`;

async function main(): Promise<void> {
  const server = await startServer();
  const databaseUrl = await createDatabase(server.adminUrl, 'bench_api');
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  const taskId = await seed(pool);
  const servers: Server[] = [];
  try {
    const spawn = async <T extends Server>(started: Promise<T>): Promise<T> => {
      const one = await started;
      servers.push(one);
      return one;
    };
    const env = { ...SERVICE_ENV, DATABASE_URL: databaseUrl };
    const service = await spawn(spawnService(env));
    const bare = await spawn(startHandler('bare-api-server.ts', databaseUrl));
    if (BASELINE) {
      const baseline = await spawn(
        spawnService(env, [], join(resolve(BASELINE), 'dist', 'main.js')),
      );
      await againstBaseline(BASELINE, readsOf(taskId), service, baseline, bare);
    } else {
      const floor = await spawn(startHandler('nest-floor-server.ts', databaseUrl));
      await againstBare(pool, readsOf(taskId), service, floor, bare);
    }
  } finally {
    for (const one of servers) one.child.kill('SIGTERM');
    await pool.end();
    await server.stop();
  }
}

/** The reads on this build, on the baseline's and on the bare handler, taking turns. */
async function againstBaseline(
  baselineDir: string,
  reads: Route[],
  service: Server,
  baseline: Server,
  bare: Server,
): Promise<void> {
  const start = loadLine();
  const sizes = await assertSameAnswers([service, baseline, bare], reads);
  const rows: string[] = [];
  for (const route of reads) {
    const rounds = await compare([service, baseline, bare].map((server) => ({ server, route })));
    const [s, b, limit] = rounds.map(median);
    rows.push(
      `| ${route.name} | ${Math.round(b.requestsPerSecond)} | ${b.p50} / ${b.p99} | ${megabytes(b.rssMb)} | ${Math.round(s.requestsPerSecond)} | ${s.p50} / ${s.p99} | ${megabytes(s.rssMb)} | ${Math.round(limit.requestsPerSecond)} | ${limit.p50} / ${limit.p99} | **${((s.requestsPerSecond / b.requestsPerSecond) * 100).toFixed(0)} %** | ${(b.requestsPerSecond / limit.requestsPerSecond).toFixed(2)}x / **${(s.requestsPerSecond / limit.requestsPerSecond).toFixed(2)}x** | ${(b.p99 / limit.p99).toFixed(2)}x / **${(s.p99 / limit.p99).toFixed(2)}x** | ${rounds.map(failures).join(' / ')} |`,
    );
  }
  const body = `Measured ${machineLine()}, ${start}; baseline: \`${commitOf(baselineDir)}\`, this build: \`${commitOf('.')}\`. Run with \`BENCH_BASELINE=<a built checkout> npm run bench -- api\`.

This build's service, the baseline's and the bare handler, set up and loaded as in "API against
the bare limit" (${ROUNDS} rounds of ${DURATION_S} s, ${CONNECTIONS} connections, after a ${WARMUP_S} s warm-up), all three answering the same
bytes (${sizesLine(reads, sizes)}). RSS: the highest of the service's process during its rounds.

| route | baseline req/s | baseline p50 / p99 (ms) | baseline RSS | this build req/s | this build p50 / p99 (ms) | this build RSS | bare req/s | bare p50 / p99 (ms) | this build / baseline | req/s vs bare (baseline / this build) | p99 vs bare (baseline / this build) | errors or non-2xx (this build / baseline / bare) |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}`;
  console.log(body);
  await writeBenchmarkSection('API against a baseline build', body);
}

function commitOf(dir: string): string {
  return execFileSync('git', ['-C', dir, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' })
    .trim()
    .slice(0, 100);
}

/** Every route on the service, the card's floor and the bare handler; MCP against REST. */
async function againstBare(
  pool: Pool,
  reads: Route[],
  service: Server,
  floor: Server,
  bare: Server,
): Promise<void> {
  const start = loadLine();
  const sizes = await assertSameAnswers([service, floor, bare], reads);
  const createBody = JSON.stringify({
    search_query: 'Has the benchmark product shipped yet?',
    state: 'paused',
  });
  const creates: Route[] = [
    {
      name: 'POST /api/v1/tasks (paused)',
      method: 'POST',
      path: '/api/v1/tasks',
      body: createBody,
    },
    {
      name: 'POST /api/v1/tasks (paused, a new Idempotency-Key each)',
      method: 'POST',
      path: '/api/v1/tasks',
      body: createBody,
      idempotent: true,
      // A user may hold 10,000 live keys (docs/api.md, "Idempotency-Key"); each load starts with none.
      before: async () => {
        await pool.query('DELETE FROM idempotency_keys');
      },
    },
  ];
  const mcpList: Route = {
    name: 'POST /mcp tools/call list_tasks',
    method: 'POST',
    path: '/mcp',
    headers: { accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_tasks', arguments: {} },
    }),
  };
  const rows: string[] = [];
  const mcpRows: string[] = [];
  const sides = [service, floor, bare];
  const measure = async (route: Route) => {
    const rounds = await compare(sides.map((server) => ({ server, route })));
    const [s, f, b] = rounds.map(median);
    const throughput = s.requestsPerSecond / b.requestsPerSecond;
    const tail = s.p99 / b.p99;
    rows.push(
      `| ${route.name} | ${Math.round(s.requestsPerSecond)} | ${s.p50} / ${s.p99} | ${Math.round(b.requestsPerSecond)} | ${b.p50} / ${b.p99} | **${throughput.toFixed(2)}x** ${throughput >= 0.7 ? 'met' : 'missed'} | **${tail.toFixed(2)}x** ${tail <= 1.5 ? 'met' : 'missed'} | ${megabytes(s.rssMb)} / ${megabytes(f.rssMb)} / ${megabytes(b.rssMb)} | ${Math.round(f.requestsPerSecond)} | ${(f.requestsPerSecond / b.requestsPerSecond).toFixed(2)}x | ${(f.p99 / b.p99).toFixed(2)}x | ${rounds.map(failures).join(' / ')} |`,
    );
  };
  // The reads first, while the user has its seeded tasks only; the creates add tens of thousands.
  for (const route of reads) await measure(route);
  // Under load (calls/s at 64 connections) and one call at a time (its latency).
  for (const connections of [CONNECTIONS, 1]) {
    const rounds = await compare(
      [service, floor].flatMap((server) => [
        { server, route: mcpList },
        { server, route: LIST },
      ]),
      connections,
    );
    const [m, r, floorMcp, floorRest] = rounds.map(median);
    // The time a call costs is the inverse of the calls/s (with one connection, its latency).
    const cost = r.requestsPerSecond / m.requestsPerSecond;
    const floorCost = floorRest.requestsPerSecond / floorMcp.requestsPerSecond;
    mcpRows.push(
      `| ${connections} | ${Math.round(m.requestsPerSecond)} | ${m.p50} / ${m.p99} | ${Math.round(r.requestsPerSecond)} | ${r.p50} / ${r.p99} | **${cost.toFixed(2)}x** ${cost <= 1.5 ? 'met' : 'missed'} | ${Math.round(floorMcp.requestsPerSecond)} | ${Math.round(floorRest.requestsPerSecond)} | ${floorCost.toFixed(2)}x | ${rounds.map(failures).join(' / ')} |`,
    );
  }
  for (const route of creates) await measure(route);
  await writeBenchmarkSection(
    'API against the bare limit',
    `Measured ${machineLine()}, ${start}. Run with \`npm run bench -- api\`.

The service (\`node dist/main.js\`, \`WORKER_ENABLED=false\`, rate limits raised so they never refuse),
the bare handler (\`bench/bare-api-server.ts\`: \`node:http\` + \`pg\`, a pool of 20 as the service's) and
the design card's floor (\`bench/nest-floor-server.ts\`: NestJS on Express with its defaults and
nothing of the service's own: no guards, pipes, interceptors, middlewares or mapping) serve the
same database. The bare handler and the floor do the same work (\`bench/bare-work.ts\`: API key
lookup by hash, one upsert of the three rate-limit windows, the query, rows mapped to the API's
JSON in one pass and \`JSON.stringify\`; with an \`Idempotency-Key\`, one statement claims the key,
one counts the user's live keys, and the insert and the kept answer share a transaction;
statements prepared, as the service's are) and answer the reads with the service's very bytes,
checked before the first round (${sizesLine(reads, sizes)}): the run stops otherwise.
They take turns: per route ${ROUNDS} rounds of ${DURATION_S} s each under autocannon with ${CONNECTIONS} connections (after a
${WARMUP_S} s warm-up), load generator on the same two cores; each figure is the median of its side's
rounds, so one disturbed round does not decide the comparison. RSS: the highest of the process
during its rounds. Targets: at least 0.7x the bare requests/s, p99 within 1.5x of the bare p99,
the service's RSS under 250 MB. The floor's share of the bare figures (requests/s, p99, RSS) is
what the card leaves before any of the service's work.

| route | service req/s | service p50 / p99 (ms) | bare req/s | bare p50 / p99 (ms) | req/s vs bare | p99 vs bare | RSS (service / floor / bare) | floor req/s | floor vs bare | floor p99 vs bare | errors or non-2xx (service / floor / bare) |
|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

The MCP tool \`list_tasks\` (a JSON-RPC \`tools/call\` on \`/mcp\`, stateless, JSON answer) against the
same list over REST, on the service and on the floor (whose \`/mcp\` is the SDK's documented
stateless server: \`McpServer\` and its Node Streamable HTTP transport, one tool answering with the
list as structured content and as JSON text), all four taking turns the same way, with
${CONNECTIONS} connections and with one (time per call: the inverse of the calls/s; with one connection, the
call's latency). Target: a call costs at most 1.5x the REST list's time. The MCP answer carries
the list twice (as text and as structured content) inside a JSON-RPC envelope that escapes the
text: three serialisations where REST has one.

| connections | MCP calls/s | MCP p50 / p99 (ms) | REST req/s | REST p50 / p99 (ms) | time per call vs REST | floor MCP calls/s | floor REST req/s | floor: time per call vs REST | errors or non-2xx (service MCP / REST / floor MCP / REST) |
|---|---|---|---|---|---|---|---|---|---|
${mcpRows.join('\n')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
