import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { Client, Pool } from 'pg';
import { CHECK_QUEUE, QUEUE_SCHEMA } from '../src/scheduler/job-queue.service';
import { EmbeddedDatabase } from '../src/database/embedded/embedded-database';
import { runMigrations } from '../src/database/migrate';

export const ROOT = resolve(__dirname, '..');

/** A PostgreSQL server for a benchmark: DATABASE_URL when set, else an embedded one. */
export async function startServer(): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL)
    return { adminUrl: process.env.DATABASE_URL, stop: async () => undefined };
  const embedded = new EmbeddedDatabase(await mkdtemp(join(tmpdir(), 'monitor-bench-')), {
    log: () => undefined,
    warn: (message) => console.warn(message),
  });
  const adminUrl = await embedded.start();
  return { adminUrl, stop: () => embedded.stop() };
}

/** A fresh database with the schema applied. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await runMigrations(url.toString());
  return url.toString();
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  rssKb(): Promise<number>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs the built service (`dist/main.js`) as a separate process, as production does.
 * `BENCH_NODE_ARGS` adds options to every instance's node (`--cpu-prof --cpu-prof-dir=...` to
 * see where a benchmark's time goes).
 */
export async function spawnService(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  entry = join(ROOT, 'dist', 'main.js'),
): Promise<ServiceProcess> {
  const port = await freePort();
  const profiling = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...profiling, ...nodeArgs, entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('service did not become healthy');
    await sleep(200);
  }
  return {
    child,
    port,
    async rssKb() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
      child.kill(signal);
      await exited;
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function machineLine(): string {
  return `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'} · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version}`;
}

/** Replaces (or appends) one `## <title>` section of BENCHMARKS.md. */
export async function writeBenchmarkSection(title: string, body: string): Promise<void> {
  const file = join(ROOT, 'BENCHMARKS.md');
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch {
    text =
      '# Benchmarks\n\nProduced by `npm run bench`; each section is rewritten by its own benchmark.\n';
  }
  const section = `## ${title}\n\n${body.trim()}\n`;
  const pattern = new RegExp(
    `## ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n[\\s\\S]*?(?=\\n## |$)`,
  );
  text = pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n${section}`;
  await writeFile(file, text.endsWith('\n') ? text : `${text}\n`);
}

export interface Seeded {
  dueAt: Date;
  due: number;
}

/** The `output_schema` and `evidence` every seeded task carries (absent: none). */
export interface SeededTaskFields {
  outputSchema?: Record<string, unknown>;
  evidence?: Record<string, unknown>;
  /** Each task watches one page: the URL `pageUrl(n)` gives for the task's number n. */
  pageUrl?: (n: number) => string;
  /** More of that page's entry (`values`, `items`), the same for every task. */
  pageFields?: Record<string, unknown>;
  /** Every task's `page_rule`. */
  pageRule?: Record<string, unknown>;
}

/**
 * Inserts `total` active tasks with their check jobs, all scheduled a day ahead (each chunk in one
 * transaction, as the service itself creates a task with its job), then makes `due` of them due
 * `leadMs` from now, so the measured run starts from a settled database.
 */
export async function seedDueTasks(
  pool: Pool,
  boss: PgBoss,
  total: number,
  due: number,
  leadMs: number,
  fields: SeededTaskFields = {},
): Promise<Seeded> {
  const { rows } = await pool.query<{ id: string }>(
    "INSERT INTO users (clerk_user_id, email) VALUES ($1, 'bench@example.com') RETURNING id",
    [`bench_${randomUUID()}`],
  );
  const userId = rows[0].id;
  const later = new Date(Date.now() + 86_400_000);
  const chunk = 5000;
  const dueJobs: string[] = [];
  const dueTasks: string[] = [];
  for (let offset = 0; offset < total; offset += chunk) {
    const size = Math.min(chunk, total - offset);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const tasks = await client.query<{ id: string }>(
        `INSERT INTO tasks (user_id, name, search_query, condition_description, state, next_run,
           output_schema, evidence, pages, page_rule)
         SELECT $1, 'bench ' || n, 'bench query number ' || n, 'bench condition ' || n, 'active', $2::timestamptz,
           $5::jsonb, $6::jsonb,
           CASE WHEN $7::text[] IS NOT NULL
             THEN jsonb_build_array(jsonb_build_object('url', ($7::text[])[n - $3::int + 1]) || $8::jsonb) END,
           $9::jsonb
         FROM generate_series($3::int, $3::int + $4::int - 1) AS n
         RETURNING id`,
        [
          userId,
          later.toISOString(),
          offset,
          size,
          fields.outputSchema ? JSON.stringify(fields.outputSchema) : null,
          fields.evidence ? JSON.stringify(fields.evidence) : null,
          fields.pageUrl
            ? Array.from({ length: size }, (_, index) => fields.pageUrl!(offset + index))
            : null,
          JSON.stringify(fields.pageFields ?? {}),
          fields.pageRule ? JSON.stringify(fields.pageRule) : null,
        ],
      );
      const jobs = tasks.rows.map((task) => ({
        id: randomUUID(),
        name: CHECK_QUEUE,
        data: { taskId: task.id },
        singletonKey: task.id,
        startAfter: later.toISOString(),
      }));
      await boss.insert(jobs, {
        db: { executeSql: (text: string, values: unknown[]) => client.query(text, values) },
      });
      await client.query(
        `UPDATE tasks SET check_job_id = j.job_id FROM unnest($1::uuid[], $2::uuid[]) AS j(task_id, job_id) WHERE tasks.id = j.task_id`,
        [jobs.map((job) => job.data.taskId), jobs.map((job) => job.id)],
      );
      await client.query('COMMIT');
      for (const job of jobs.slice(0, Math.max(0, due - dueJobs.length))) {
        dueJobs.push(job.id);
        dueTasks.push(job.data.taskId);
      }
    } finally {
      client.release();
    }
  }
  // Fresh bulk inserts leave the planner without statistics; autovacuum gathers them soon after
  // in a real deployment, so gather them now rather than time plans made blind.
  await pool.query('ANALYZE tasks');
  await pool.query('ANALYZE pgboss.job');
  const dueAt = new Date(Date.now() + leadMs);
  await pool.query(
    `UPDATE pgboss.job SET start_after = $2 WHERE name = $3 AND id = ANY($1::uuid[])`,
    [dueJobs, dueAt.toISOString(), CHECK_QUEUE],
  );
  await pool.query('UPDATE tasks SET next_run = $2 WHERE id = ANY($1::uuid[])', [
    dueTasks,
    dueAt.toISOString(),
  ]);
  return { dueAt, due };
}

export interface Outcome {
  seconds: number;
  checksPerSecond: number;
  duplicates: number;
  missed: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Waits until every seeded task has a successful check made since it was due; throughput and
 * due→started latency of those checks.
 */
export async function awaitChecks(pool: Pool, seeded: Seeded, timeoutMs: number): Promise<Outcome> {
  const deadline = Date.now() + timeoutMs;
  const since = seeded.dueAt.toISOString();
  for (;;) {
    const { rows } = await pool.query<{ done: number }>(
      "SELECT count(DISTINCT task_id)::int AS done FROM executions WHERE status = 'success' AND created_at >= $1",
      [since],
    );
    if (rows[0].done >= seeded.due || Date.now() > deadline) break;
    await sleep(200);
  }
  const stats = await pool.query<{ total: number; distinct_tasks: number; last: Date }>(
    `SELECT count(*)::int AS total, count(DISTINCT task_id)::int AS distinct_tasks, max(completed_at) AS last
     FROM executions WHERE status = 'success' AND created_at >= $1`,
    [since],
  );
  const latencies = await pool.query<{ ms: number }>(
    `SELECT EXTRACT(EPOCH FROM (started_at - $1::timestamptz)) * 1000 AS ms FROM executions
     WHERE created_at >= $1 ORDER BY 1`,
    [since],
  );
  const sorted = latencies.rows.map((row) => Math.max(0, Number(row.ms)));
  const { total, distinct_tasks: distinctTasks, last } = stats.rows[0];
  const seconds = (new Date(last).getTime() - seeded.dueAt.getTime()) / 1000;
  return {
    seconds,
    checksPerSecond: distinctTasks / seconds,
    duplicates: total - distinctTasks,
    missed: seeded.due - distinctTasks,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}

/** A pool and a pg-boss client on the benchmark's database, for seeding. */
export async function openQueue(databaseUrl: string): Promise<{ pool: Pool; boss: PgBoss }> {
  const pool = new Pool({ connectionString: databaseUrl, max: 4 });
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: QUEUE_SCHEMA,
    supervise: false,
    schedule: false,
    migrate: false,
  });
  await boss.start();
  return { pool, boss };
}

/** A shop-like page of `bytes` or a little more: headings, inline markup, lists, scripts, tables. */
export function cataloguePage(
  bytes: number,
  head = '<!doctype html><html><head><title>Catalogue</title><style>p{}</style></head><body>',
): Buffer {
  const parts = [head];
  let size = head.length;
  for (let item = 0; size < bytes; item++) {
    const part =
      `<div class="item"><h2>Item ${item}</h2><p>Some <b>bold</b> text and <a href="/i/${item}">a link</a>, ` +
      `price ${item}.99 EUR</p><script>track(${item});</script><ul><li>size S</li><li>size M</li></ul>` +
      `<table><tr><td>stock</td><td>${item % 7}</td></tr></table></div>\n`;
    parts.push(part);
    size += part.length;
  }
  parts.push('</body></html>');
  return Buffer.from(parts.join(''));
}
