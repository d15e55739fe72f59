/**
 * The API against its bare limit: the service (`dist/main.js`, API only), a bare `node:http`
 * + `pg` handler doing the same work (`bare-api-server.ts`) and the same work on NestJS with
 * nothing of the service's own (`nest-floor-server.ts`, the design card's floor) serve the same
 * database, taking turns, under the same load (autocannon, 64 connections). Reported per route:
 * requests/s, p50 and p99 latency, and the service's and the floor's share of the bare figures.
 * Targets (issue "The house"): at least 0.7x the bare requests/s and a p99 within 1.5x of the
 * bare p99. MCP's `list_tasks` is compared with the REST list on the service and on the floor.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
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
const DURATION_S = 8;
const WARMUP_S = 2;
/** Rounds per route, service and bare taking turns; each figure reported is its side's median. */
const ROUNDS = 5;
const TASKS = 50;
const API_KEY = `sk_${'Bench0123456789abcdefghijKLMNOPQ'.slice(0, 32)}`;

interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
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

/** Starts one of the comparison handlers (`bench/<file>`) and waits until it answers. */
async function startHandler(
  file: string,
  databaseUrl: string,
): Promise<{ port: number; child: ChildProcess }> {
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

async function load(
  port: number,
  route: Route,
  seconds: number,
  connections = CONNECTIONS,
): Promise<Measured> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${route.path}`,
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
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Each speed figure's median over the rounds (failures are summed, not taken the median of). */
function median(rounds: Measured[]): Pick<Measured, 'requestsPerSecond' | 'p50' | 'p99'> {
  const middle = (pick: (round: Measured) => number) =>
    rounds.map(pick).sort((a, b) => a - b)[Math.floor(rounds.length / 2)];
  return {
    requestsPerSecond: middle((round) => round.requestsPerSecond),
    p50: middle((round) => round.p50),
    p99: middle((round) => round.p99),
  };
}

interface Route {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  idempotent?: boolean;
}

interface Side {
  port: number;
  route: Route;
}

/** Runs the sides' loads in turns, `ROUNDS` times (after a warm-up each); each side's rounds. */
async function compare(sides: Side[], connections = CONNECTIONS): Promise<Measured[][]> {
  const rounds = sides.map((): Measured[] => []);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, side] of sides.entries()) {
      if (round === 0) await load(side.port, side.route, WARMUP_S, connections);
      const measured = await load(side.port, side.route, DURATION_S, connections);
      console.log(index, side.port, side.route.name, measured);
      rounds[index].push(measured);
    }
  }
  return rounds;
}

const failures = (side: Measured[]) =>
  side.reduce((sum, round) => sum + round.errors + round.non2xx, 0);

async function main(): Promise<void> {
  const server = await startServer();
  const databaseUrl = await createDatabase(server.adminUrl, 'bench_api');
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  const taskId = await seed(pool);
  const list: Route = {
    name: `GET /api/v1/tasks (${TASKS} tasks with their last execution)`,
    method: 'GET',
    path: '/api/v1/tasks',
  };
  const createBody = JSON.stringify({
    search_query: 'Has the benchmark product shipped yet?',
    state: 'paused',
  });
  const reads: Route[] = [
    list,
    { name: 'GET /api/v1/tasks/{id}', method: 'GET', path: `/api/v1/tasks/${taskId}` },
  ];
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
  const service = await spawnService({
    DATABASE_URL: databaseUrl,
    WORKER_ENABLED: 'false',
    RATE_LIMIT_PER_MINUTE: '10000000',
    RATE_LIMIT_PER_HOUR: '10000000',
    RATE_LIMIT_PER_DAY: '10000000',
    // Task creation runs for minutes: the per-user task cap would refuse it after 1,000.
    MAX_TASKS_PER_USER: '0',
  });
  const bare = await startHandler('bare-api-server.ts', databaseUrl);
  const floor = await startHandler('nest-floor-server.ts', databaseUrl);
  const listSize = (
    await (
      await fetch(`http://127.0.0.1:${service.port}/api/v1/tasks`, {
        headers: { authorization: `Bearer ${API_KEY}` },
      })
    ).text()
  ).length;
  const rows: string[] = [];
  const mcpRows: string[] = [];
  try {
    const againstBare = async (route: Route) => {
      const rounds = await compare([service, floor, bare].map(({ port }) => ({ port, route })));
      const [s, f, b] = rounds.map(median);
      const throughput = s.requestsPerSecond / b.requestsPerSecond;
      const tail = s.p99 / b.p99;
      rows.push(
        `| ${route.name} | ${Math.round(s.requestsPerSecond)} | ${s.p50} / ${s.p99} | ${Math.round(b.requestsPerSecond)} | ${b.p50} / ${b.p99} | **${throughput.toFixed(2)}x** ${throughput >= 0.7 ? 'met' : 'missed'} | **${tail.toFixed(2)}x** ${tail <= 1.5 ? 'met' : 'missed'} | ${Math.round(f.requestsPerSecond)} | ${(f.requestsPerSecond / b.requestsPerSecond).toFixed(2)}x | ${rounds.map(failures).join(' / ')} |`,
      );
    };
    // The reads first, while the user has its seeded tasks only; the creates add tens of thousands.
    for (const route of reads) await againstBare(route);
    // Under load (calls/s at 64 connections) and one call at a time (its latency).
    for (const connections of [CONNECTIONS, 1]) {
      const rounds = await compare(
        [service, floor].flatMap(({ port }) => [
          { port, route: mcpList },
          { port, route: list },
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
    for (const route of creates) await againstBare(route);
  } finally {
    await service.stop();
    bare.child.kill('SIGTERM');
    floor.child.kill('SIGTERM');
    await pool.end();
    await server.stop();
  }
  await writeBenchmarkSection(
    'API against the bare limit',
    `Measured ${machineLine()}. Run with \`npm run bench -- api\`.

The service (\`node dist/main.js\`, \`WORKER_ENABLED=false\`, rate limits raised so they never refuse),
the bare handler (\`bench/bare-api-server.ts\`: \`node:http\` + \`pg\`) and the design card's floor
(\`bench/nest-floor-server.ts\`: NestJS on Express with its defaults and nothing of the service's
own: no guards, pipes, interceptors, middlewares or mapping) serve the same database. The bare
handler and the floor do the same work (\`bench/bare-work.ts\`: API key lookup by hash, one upsert of
the three rate-limit windows, the query, JSON; with an \`Idempotency-Key\`, one statement claims the
key before the insert and one keeps the answer after it; statements prepared, as the service's
are). They take turns: per route ${ROUNDS} rounds of ${DURATION_S} s each under autocannon with
${CONNECTIONS} connections (after a ${WARMUP_S} s warm-up), load generator on the same two cores; each
figure is the median of its side's rounds, so one disturbed round does not decide the comparison.
The task list is ${Math.round(listSize / 1024)} KB of JSON. Targets: at least 0.7x the bare requests/s, p99 within
1.5x of the bare p99. The floor's share of the bare figure is what the card leaves before any of
the service's work.

| route | service req/s | service p50 / p99 (ms) | bare req/s | bare p50 / p99 (ms) | req/s vs bare | p99 vs bare | floor req/s | floor vs bare | errors or non-2xx (service / floor / bare) |
|---|---|---|---|---|---|---|---|---|---|
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
