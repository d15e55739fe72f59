/**
 * Digests benchmark (docs/attention.md, "Digests"): BENCH_DIGEST_USERS (10,000) users whose
 * daily digest falls in the same minute, one task each with a webhook digest config and
 * BENCH_DIGEST_EVENTS (5) met-condition events, two instances of the built service on one
 * database, a local receiver. The events go through the real path: their delivery jobs are due
 * at once and the services capture them (held); at the period's end every user's digest must
 * arrive within 60 s, once each, with all its events.
 *
 * Run: `npx ts-node --transpile-only bench/digests-bench.ts` (runs `npm run build` first into
 * `dist/`; BENCH_SKIP_BUILD=1 skips that). Uses DATABASE_URL when set, else an embedded
 * PostgreSQL.
 */
import { execFileSync } from 'node:child_process';
import type { Pool } from 'pg';
import type PgBoss from 'pg-boss';
import { deliveryJobId } from '../src/notifications/delivery/delivery-job';
import { DELIVERY_QUEUE } from '../src/scheduler/job-queue.service';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import {
  createDatabase,
  openQueue,
  percentile,
  ROOT,
  sleep,
  spawnService,
  startServer,
  writeBenchmarkSection,
  type ServiceProcess,
} from './bench-support';
import { machine, webhookConfig } from './notifications-support';

const USERS = Number(process.env.BENCH_DIGEST_USERS ?? 10_000);
const EVENTS = Number(process.env.BENCH_DIGEST_EVENTS ?? 5);
const INSTANCES = 2;
/** The digest minute is at least this far ahead of the seeding, to capture every event first. */
const LEAD_MS = Number(process.env.BENCH_DIGEST_LEAD_MS ?? 90_000);
const TARGET_MS = 60_000;
/** The crash run: this many users, both instances killed once this share of digests is recorded. */
const CRASH_USERS = Number(process.env.BENCH_DIGEST_CRASH_USERS ?? 500);
const KILL_AT = 0.4;

interface DigestResult {
  captureSeconds: number;
  capturedBeforeEnd: boolean;
  lastDigestSeconds: number;
  p50Ms: number;
  p99Ms: number;
  digests: number;
  requests: number;
  duplicateIds: number;
  incomplete: number;
  digestRecords: number;
  /** Digests recorded as sent more than once (per user: one destination each). */
  duplicateSuccessRecords: number;
  heldLeft: number;
}

/** Users with their digest at `periodEnd` (UTC), one task each with a webhook digest config. */
async function seedUsers(
  pool: Pool,
  receiverUrl: string,
  periodEnd: Date,
  users: number,
): Promise<string[]> {
  const preferences = {
    time_zone: 'UTC',
    quiet_hours: null,
    digest: { frequency: 'daily', at: periodEnd.toISOString().slice(11, 16), weekday: 1 },
  };
  const config = { ...webhookConfig(`${receiverUrl}/digest`), delivery: 'digest' };
  const { rows } = await pool.query<{ id: string }>(
    `WITH users AS (
       INSERT INTO users (clerk_user_id, email, preferences)
       SELECT 'bench_digest_' || n, 'bench' || n || '@example.com', $1::jsonb
       FROM generate_series(1, $2::int) AS n RETURNING id
     )
     INSERT INTO tasks (user_id, name, search_query, condition_description, state, notifications)
     SELECT id, 'digest bench', 'bench query', 'bench condition', 'active', $3::jsonb FROM users
     RETURNING id`,
    [JSON.stringify(preferences), users, JSON.stringify([config])],
  );
  return rows.map((row) => row.id);
}

/** EVENTS met-condition executions per task, and their delivery jobs, due now. */
async function seedEvents(pool: Pool, boss: PgBoss, taskIds: string[]): Promise<void> {
  const chunk = 2000;
  for (let offset = 0; offset < taskIds.length; offset += chunk) {
    const { rows } = await pool.query<{ id: string; task_id: string }>(
      `INSERT INTO executions (task_id, status, trigger, completed_at, condition_met, answer,
         reasoning, grounding_sources, result)
       SELECT t.id, 'success', 'scheduled', now(), true, 'The thing happened (' || n || ')',
         'Because the bench says so.', '[]'::jsonb, '{}'::jsonb
       FROM unnest($1::uuid[]) AS t(id), generate_series(1, $2::int) AS n
       RETURNING id, task_id`,
      [taskIds.slice(offset, offset + chunk), EVENTS],
    );
    await boss.insert(
      rows.map((row) => ({
        id: deliveryJobId(row.id, 'webhook'),
        name: DELIVERY_QUEUE,
        data: { executionId: row.id, taskId: row.task_id, channel: 'webhook' },
      })),
    );
  }
}

async function count(pool: Pool, where: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM notification_sends WHERE ${where}`,
  );
  return rows[0].n;
}

async function waitForCount(
  pool: Pool,
  where: string,
  target: number,
  deadline: number,
): Promise<number> {
  for (;;) {
    const done = await count(pool, where);
    if (done >= target || Date.now() > deadline) return done;
    await sleep(200);
  }
}

/**
 * One run: `users` users' digests due in the same minute. With `crash`, the receiver answers
 * after 0 to 200 ms and both instances are killed (`kill -9`) once KILL_AT of the digests are
 * recorded, then started again.
 */
async function run(adminUrl: string, users: number, crash: boolean): Promise<DigestResult> {
  const databaseUrl = await createDatabase(
    adminUrl,
    crash ? 'bench_digests_crash' : 'bench_digests',
  );
  const receiver = await new WebhookReceiver().start();
  receiver.recordRequests = false;
  let incomplete = 0;
  receiver.respondWith((request) => {
    const events = (JSON.parse(request.body) as { data: { events: unknown[] } }).data.events;
    if (events.length !== EVENTS) incomplete++;
    return { status: 200, delayMs: crash ? Math.round(Math.random() * 200) : 0 };
  });
  const env = {
    DATABASE_URL: databaseUrl,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'error',
  };
  const services: ServiceProcess[] = [];
  for (let index = 0; index < INSTANCES; index++) services.push(await spawnService(env));
  const { pool, boss } = await openQueue(databaseUrl);
  try {
    const periodEnd = new Date(Math.ceil((Date.now() + LEAD_MS) / 60_000) * 60_000);
    const taskIds = await seedUsers(pool, receiver.url, periodEnd, users);
    const seededAt = Date.now();
    await seedEvents(pool, boss, taskIds);
    await pool.query('ANALYZE');
    const held = await waitForCount(
      pool,
      "status = 'held'",
      users * EVENTS,
      periodEnd.getTime() + 60_000,
    );
    const captureSeconds = (Date.now() - seededAt) / 1000;
    const capturedBeforeEnd = held === users * EVENTS && Date.now() < periodEnd.getTime();
    console.log(`captured ${held} events in ${captureSeconds.toFixed(1)} s`);
    const sent = "event = 'digest' AND status = 'success'";
    if (crash) {
      await waitForCount(pool, sent, users * KILL_AT, periodEnd.getTime() + 3 * TARGET_MS);
      for (const service of services) await service.stop('SIGKILL');
      services.length = 0;
      for (let index = 0; index < INSTANCES; index++) services.push(await spawnService(env));
    }
    const digests = await waitForCount(pool, sent, users, periodEnd.getTime() + 5 * TARGET_MS);
    const { rows } = await pool.query<{ last: Date }>(
      "SELECT max(created_at) AS last FROM notification_sends WHERE event = 'digest'",
    );
    await sleep(3000); // a second sender would show itself now
    const latencies = receiver.arrivals.map((at) => at - periodEnd.getTime()).sort((a, b) => a - b);
    return {
      captureSeconds,
      capturedBeforeEnd,
      lastDigestSeconds: (rows[0].last.getTime() - periodEnd.getTime()) / 1000,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      digests,
      requests: receiver.count,
      duplicateIds: [...receiver.countsById.values()].filter((n) => n > 1).length,
      incomplete,
      digestRecords: await count(pool, "event = 'digest'"),
      duplicateSuccessRecords: (
        await pool.query<{ extra: number }>(
          `SELECT coalesce(sum(n - 1), 0)::int AS extra FROM (
             SELECT count(*) AS n FROM notification_sends WHERE ${sent}
             GROUP BY user_id HAVING count(*) > 1) AS repeated`,
        )
      ).rows[0].extra,
      heldLeft: await count(pool, "status = 'held'"),
    };
  } finally {
    await boss.stop({ graceful: false, close: true });
    await pool.end();
    for (const service of services) await service.stop();
    await receiver.stop();
  }
}

async function main(): Promise<void> {
  if (!process.env.BENCH_SKIP_BUILD)
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const server = await startServer();
  const machineLine = machine();
  try {
    const result = await run(server.adminUrl, USERS, false);
    console.log(result);
    const crashed = await run(server.adminUrl, CRASH_USERS, true);
    console.log(crashed);
    const passed =
      result.capturedBeforeEnd &&
      result.digests === USERS &&
      result.requests === USERS &&
      result.duplicateIds === 0 &&
      result.incomplete === 0 &&
      result.lastDigestSeconds <= TARGET_MS / 1000;
    await writeBenchmarkSection(
      'Digests: 10,000 users due in the same minute',
      `\`npx ts-node --transpile-only bench/digests-bench.ts\` (bench/digests-bench.ts), ${machineLine}.

${USERS.toLocaleString('en')} users whose daily digest is at the same minute (UTC), one task each
with a webhook digest config and ${EVENTS} met-condition events; ${INSTANCES} instances of the
built service on one database (${process.env.DATABASE_URL ? 'the PostgreSQL server of DATABASE_URL' : 'an embedded PostgreSQL'}), a local receiver. The events go
through the real path: their ${(USERS * EVENTS).toLocaleString('en')} delivery jobs are due at once and the
instances capture them (held, ${result.captureSeconds.toFixed(1)} s, ${result.capturedBeforeEnd ? 'all before the digest minute' : 'NOT all before the digest minute'}); then at the minute each user's period job
gathers, sends and records. (A capture inserts each period's job once and in id order: before it
did, two instances capturing at once deadlocked on the jobs and captured about 100 events/s.)

| Measure | Result | Target |
|---|---|---|
| Last digest recorded after the period's end | ${result.lastDigestSeconds.toFixed(1)} s | ≤ 60 s |
| Arrival after the period's end, p50 / p99 | ${(result.p50Ms / 1000).toFixed(1)} s / ${(result.p99Ms / 1000).toFixed(1)} s | |
| Digests delivered (success records) | ${result.digests.toLocaleString('en')} of ${USERS.toLocaleString('en')} | all |
| Requests received | ${result.requests.toLocaleString('en')} | one per user |
| \`webhook-id\`s received more than once | ${result.duplicateIds} | 0 |
| Digests without all ${EVENTS} events | ${result.incomplete} | 0 |
| \`digest\` send records | ${result.digestRecords.toLocaleString('en')} | one per user |

${passed ? 'Every digest went within the minute, once, with all its events.' : '**The target was not met in this run.**'}

**Crash.** ${CRASH_USERS} users, the same way, the receiver answering after 0 to 200 ms; both
instances are killed (\`kill -9\`) once ${KILL_AT * 100} % of the digests are recorded, and started again.

| digests sent (success records) | lost | digests recorded as sent twice | held records left | requests received | \`webhook-id\`s received more than once |
|---|---|---|---|---|---|
| ${crashed.digests} of ${CRASH_USERS} | **${CRASH_USERS - crashed.digests}** | ${crashed.duplicateSuccessRecords} | ${crashed.heldLeft} | ${crashed.requests} | ${crashed.duplicateIds} |

A \`webhook-id\` received twice is a digest that was in flight at the kill, sent again after the
restart with the same id and body (receivers following Standard Webhooks drop it). The
last digest came ${crashed.lastDigestSeconds.toFixed(0)} s after the period's end: the jobs of the killed instances
come back when they expire (120 s), as every queue job of a dead worker does.`,
    );
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
