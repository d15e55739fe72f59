import { copyFileSync, mkdirSync } from 'node:fs';
import { execFileSync, execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type PgBoss from 'pg-boss';
import type { Pool } from 'pg';
import { deliveryJobId } from '../src/notifications/delivery/delivery-job';
import { DELIVERY_QUEUE } from '../src/scheduler/job-queue.service';
import type { NotificationConfig } from '../src/notifications/channels/channel-registry';
import { ROOT, sleep, spawnService, type ServiceProcess } from './bench-support';

/**
 * The notifications benchmarks compile the service into a directory of their own (the same
 * `tsc -p tsconfig.build.json` that `npm run build` runs), so they never race another benchmark
 * or build over `dist/` on a shared machine.
 */
const BUILD_ROOT = join(ROOT, 'node_modules', '.cache', 'notifications-bench');
export const BUILD_DIR = join(BUILD_ROOT, 'dist');

/** Builds the service into BUILD_DIR, with the `package.json` it reads beside it (as `dist/`). */
export function buildService(): void {
  mkdirSync(BUILD_ROOT, { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(BUILD_ROOT, 'package.json'));
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      BUILD_DIR,
    ],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
}

export type RunningService = ServiceProcess;

/** Runs this benchmark's build of the service and waits until it is healthy. */
export function startService(env: Record<string, string>): Promise<RunningService> {
  // BENCH_SERVICE_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`, profiles the service.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return spawnService(env, nodeArgs, join(BUILD_DIR, 'main.js'));
}

/** A stored webhook config, as the API would store it for `url`. */
export function webhookConfig(url: string): NotificationConfig {
  return {
    type: 'webhook',
    url,
    method: 'POST',
    headers: { 'X-Bench': '1' },
    secret: `whsec_${randomBytes(24).toString('base64')}`,
  };
}

export interface SeededDeliveries {
  dueAt: Date;
  executionIds: string[];
}

/**
 * Inserts `count` completed tasks (named `bench <n>`) with these notification configs, one
 * met-condition execution each, and the delivery jobs the check runner would have queued for
 * them (same ids and data, one per channel), due at `dueAt`.
 */
export async function seedDeliveries(
  pool: Pool,
  boss: PgBoss,
  count: number,
  configs: NotificationConfig[],
  leadMs: number,
): Promise<SeededDeliveries> {
  const { rows: users } = await pool.query<{ id: string }>(
    "INSERT INTO users (clerk_user_id, email) VALUES ($1, 'bench@example.com') RETURNING id",
    [`bench_${randomBytes(6).toString('hex')}`],
  );
  const channels = configs.map((config) => config.type);
  // One task per delivery: a burst of met conditions comes from many tasks (a task runs at most
  // every SCHEDULER_MIN_INTERVAL).
  const { rows: tasks } = await pool.query<{ id: string }>(
    `INSERT INTO tasks (user_id, name, search_query, condition_description, state, notifications)
     SELECT $1, 'bench ' || n, 'bench query ' || n, 'bench condition ' || n, 'completed', $2::jsonb
     FROM generate_series(1, $3::int) AS n RETURNING id`,
    [users[0].id, JSON.stringify(configs), count],
  );
  const taskIds = tasks.map((task) => task.id);
  const decision = JSON.stringify({
    notify: true,
    reason: 'condition_met',
    channels,
    completes_task: false,
  });
  const executionIds: string[] = [];
  const chunk = 5000;
  const dueAt = new Date(Date.now() + leadMs);
  for (let offset = 0; offset < count; offset += chunk) {
    const size = Math.min(chunk, count - offset);
    const { rows } = await pool.query<{ id: string; task_id: string }>(
      `INSERT INTO executions (task_id, status, trigger, completed_at, condition_met, answer,
         reasoning, grounding_sources, result, notification)
       SELECT ($1::uuid[])[1 + (n % $2::int)], 'success', 'scheduled', now(), true,
         'The thing happened (bench ' || n || ')', 'Because the bench says so.',
         '[{"uri":"https://example.com/a","title":"A"}]'::jsonb, '{}'::jsonb, $5::jsonb
       FROM generate_series($3::int, $3::int + $4::int - 1) AS n RETURNING id, task_id`,
      [taskIds, count, offset, size, decision],
    );
    await boss.insert(
      rows.flatMap((row) =>
        channels.map((channel) => ({
          id: deliveryJobId(row.id, channel),
          name: DELIVERY_QUEUE,
          data: { executionId: row.id, taskId: row.task_id, channel },
          startAfter: dueAt.toISOString(),
        })),
      ),
    );
    executionIds.push(...rows.map((row) => row.id));
  }
  // Fresh bulk inserts leave the planner without statistics; autovacuum gathers them soon after
  // in a real deployment, so gather them now rather than time plans made blind.
  await pool.query('ANALYZE tasks');
  await pool.query('ANALYZE executions');
  await pool.query('ANALYZE pgboss.job');
  return { dueAt, executionIds };
}

/** Date, `nproc`, CPU model, RAM, Node version and load: the line a result is read against. */
export function machine(): string {
  let nproc = String(cpus().length);
  try {
    nproc = execSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    // no coreutils: the Node count stands in
  }
  const load = loadavg()[0].toFixed(2);
  return `${new Date().toISOString().slice(0, 10)} on nproc ${nproc} · ${cpus()[0]?.model ?? 'unknown CPU'} · ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM · Node ${process.version} (load average ${load} at the start: the machine is shared)`;
}

/** The environment of a benchmark's service: receivers on 127.0.0.1, short retries, quiet log. */
export function deliveryServiceEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '1s,5s,30s',
    LOG_LEVEL: 'error',
  };
}

/** How many send records have `status`. */
export async function countSends(pool: Pool, status: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM notification_sends WHERE status = $1',
    [status],
  );
  return rows[0].n;
}

/** Waits until `target` send records have `status`, or the time is up; returns the count. */
export async function waitForSends(
  pool: Pool,
  status: string,
  target: number,
  timeoutMs: number,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const done = await countSends(pool, status);
    if (done >= target || Date.now() > deadline) return done;
    await sleep(100);
  }
}
