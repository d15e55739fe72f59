/**
 * Attention's delivery benchmarks (docs/attention.md, "How deliveries wait"):
 *  1. Quiet-hours release against plain webhook throughput, in the same run, taking turns:
 *     N deliveries due at once to a user without quiet hours (deliveries/s from due to the last
 *     send record), and N held by the owner's quiet hours, timed from the end of the quiet hours
 *     to the last send record. Target: the release drains at 80 % or more of the plain rate.
 *  2. Crash: deliveries held by quiet hours, `kill -9` of the service while they are being held
 *     and again while they are being released; restart each time. Nothing may be lost, sent
 *     twice as a success, or left open.
 *
 * Run: `npm run bench -- attention` (or `npx ts-node --transpile-only bench/attention-bench.ts`,
 * BENCH_SKIP_BUILD=1 to skip the build). Knobs: BENCH_DELIVERIES (20,000), BENCH_ROUNDS (2),
 * BENCH_CRASH_DELIVERIES (1,000).
 */
import type { Pool } from 'pg';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import {
  createDatabase,
  openQueue,
  sleep,
  startServer,
  writeBenchmarkSection,
} from './bench-support';
import {
  buildService,
  countSends,
  deliveryServiceEnv,
  machine,
  seedDeliveries,
  startService,
  webhookConfig,
  waitForSends,
  type RunningService,
} from './notifications-support';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CRASH_DELIVERIES = Number(process.env.BENCH_CRASH_DELIVERIES ?? 1000);
/** Holding this many deliveries must be over before the quiet hours end. */
const HOLD_MARGIN_MS = 35_000;

/** `HH:MM` in UTC. */
function clock(at: Date): string {
  return at.toISOString().slice(11, 16);
}

/**
 * The next minute boundary at least HOLD_MARGIN_MS away: quiet hours from an hour ago until then
 * hold everything queued now, and end at a known instant.
 */
function quietUntil(): Date {
  const next = new Date(Math.ceil((Date.now() + HOLD_MARGIN_MS) / 60_000) * 60_000);
  return next;
}

async function setQuietHours(pool: Pool, executionId: string, end: Date): Promise<void> {
  const preferences = {
    time_zone: 'UTC',
    quiet_hours: { start: clock(new Date(end.getTime() - 3_600_000)), end: clock(end) },
    digest: { frequency: 'daily', at: '08:00', weekday: 1 },
  };
  await pool.query(
    `UPDATE users SET preferences = $2::jsonb WHERE id = (
       SELECT t.user_id FROM executions e JOIN tasks t ON t.id = e.task_id WHERE e.id = $1)`,
    [executionId, JSON.stringify(preferences)],
  );
}

interface Run {
  kind: 'plain' | 'quiet';
  seconds: number;
  perSecond: number;
  delivered: number;
  held: number;
  duplicates: number;
}

async function run(adminUrl: string, kind: Run['kind'], index: number): Promise<Run> {
  const databaseUrl = await createDatabase(adminUrl, `bench_attention_${kind}_${index}`);
  const receiver = await new WebhookReceiver().start();
  receiver.recordRequests = false;
  const service = await startService(deliveryServiceEnv(databaseUrl));
  const { pool, boss } = await openQueue(databaseUrl);
  try {
    const end = quietUntil();
    const seeded = await seedDeliveries(
      pool,
      boss,
      DELIVERIES,
      [webhookConfig(`${receiver.url}/${kind}`)],
      3000 + DELIVERIES / 5,
    );
    let startedAt = seeded.dueAt.getTime();
    let held = 0;
    if (kind === 'quiet') {
      await setQuietHours(pool, seeded.executionIds[0], end);
      held = await waitForSends(pool, 'held', DELIVERIES, end.getTime() - Date.now());
      if (held < DELIVERIES) throw new Error(`only ${held} of ${DELIVERIES} held before the end`);
      startedAt = end.getTime();
    }
    while (Date.now() < startedAt) await sleep(5);
    const done = await waitForSends(pool, 'success', DELIVERIES, 300_000);
    const seconds = (Date.now() - startedAt) / 1000;
    return {
      kind,
      seconds,
      perSecond: done / seconds,
      delivered: done,
      held,
      duplicates: [...receiver.countsById.values()].filter((n) => n > 1).length,
    };
  } finally {
    await boss.stop({ graceful: false, close: true });
    await pool.end();
    await service.stop();
    await receiver.stop();
  }
}

interface CrashResult {
  heldAtFirstKill: number;
  deliveredAtSecondKill: number;
  delivered: number;
  lost: number;
  duplicateSuccessRecords: number;
  heldRecordsLeft: number;
  openDeliveries: number;
  extraRequests: number;
}

async function crash(adminUrl: string): Promise<CrashResult> {
  const databaseUrl = await createDatabase(adminUrl, 'bench_attention_crash');
  const receiver = await new WebhookReceiver().start();
  receiver.recordRequests = false;
  receiver.respondWith(() => ({ status: 200, delayMs: Math.round(Math.random() * 200) }));
  let service: RunningService = await startService(deliveryServiceEnv(databaseUrl));
  const { pool, boss } = await openQueue(databaseUrl);
  try {
    const end = quietUntil();
    const seeded = await seedDeliveries(
      pool,
      boss,
      CRASH_DELIVERIES,
      [webhookConfig(`${receiver.url}/crash`)],
      1000,
    );
    await setQuietHours(pool, seeded.executionIds[0], end);
    // kill -9 while the deliveries are being held...
    while ((await countSends(pool, 'held')) < CRASH_DELIVERIES / 2) await sleep(10);
    await service.stop('SIGKILL');
    const heldAtFirstKill = await countSends(pool, 'held');
    service = await startService(deliveryServiceEnv(databaseUrl));
    // ...and again while they are being released.
    while (Date.now() < end.getTime()) await sleep(50);
    while ((await countSends(pool, 'success')) < CRASH_DELIVERIES / 2) await sleep(10);
    await service.stop('SIGKILL');
    const deliveredAtSecondKill = await countSends(pool, 'success');
    service = await startService(deliveryServiceEnv(databaseUrl));
    const done = await waitForSends(pool, 'success', CRASH_DELIVERIES, 300_000);
    await sleep(2000);
    const { rows: duplicates } = await pool.query<{ extra: number }>(
      `SELECT coalesce(sum(n - 1), 0)::int AS extra FROM (
         SELECT count(*) AS n FROM notification_sends WHERE status = 'success'
         GROUP BY execution_id HAVING count(*) > 1) AS repeated`,
    );
    const { rows: open } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM notification_deliveries WHERE state NOT IN ('delivered', 'failed', 'skipped')",
    );
    const counts = [...receiver.countsById.values()];
    return {
      heldAtFirstKill,
      deliveredAtSecondKill,
      delivered: done,
      lost: CRASH_DELIVERIES - done,
      duplicateSuccessRecords: duplicates[0].extra,
      heldRecordsLeft: await countSends(pool, 'held'),
      openDeliveries: open[0].n,
      extraRequests: counts.reduce((sum, n) => sum + n - 1, 0),
    };
  } finally {
    await boss.stop({ graceful: false, close: true });
    await pool.end();
    await service.stop();
    await receiver.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const measuredOn = machine();
  if (process.env.BENCH_SKIP_BUILD !== '1') buildService();
  const server = await startServer();
  try {
    const runs: Run[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const kind of ['plain', 'quiet'] as const) {
        const one = await run(server.adminUrl, kind, round);
        console.log(`${kind} ${round + 1}: ${one.perSecond.toFixed(0)} deliveries/s`);
        runs.push(one);
      }
    }
    const plain = median(runs.filter((one) => one.kind === 'plain').map((one) => one.perSecond));
    const quiet = median(runs.filter((one) => one.kind === 'quiet').map((one) => one.perSecond));
    const crashed = await crash(server.adminUrl);
    const body = [
      `Measured ${measuredOn}. Run with \`npm run bench -- attention\`.`,
      '',
      `**1. Quiet-hours release.** ${DELIVERIES} webhook deliveries due at once, one instance of`,
      'the built service, a local receiver answering at once; the runs take turns. A plain run is',
      'timed from the moment the deliveries are due to the last send record; a quiet run first',
      "holds every delivery (the owner's quiet hours cover the moment they fall due: each becomes",
      'a `held` row, a `held` send record and a job due at the end), then is timed from the end of',
      'the quiet hours to the last send record. Target: the release at 80 % of the plain rate.',
      '',
      '| run | kind | held before the end | delivered | seconds | deliveries/s | duplicate webhook-ids |',
      '|---|---|---|---|---|---|---|',
      ...runs.map(
        (one, index) =>
          `| ${index + 1} | ${one.kind} | ${one.held} | ${one.delivered} | ${one.seconds.toFixed(2)} | ${one.perSecond.toFixed(0)} | ${one.duplicates} |`,
      ),
      '',
      `Medians: plain ${plain.toFixed(0)}, release ${quiet.toFixed(0)} deliveries/s: **${((quiet / plain) * 100).toFixed(0)} %** (target 80 %).`,
      '',
      `**2. Crash with held deliveries.** ${CRASH_DELIVERIES} deliveries held by quiet hours;`,
      '`kill -9` once half are held, restart; `kill -9` again once half are delivered after the',
      'end of the quiet hours, restart; the receiver answers after 0 to 200 ms.',
      '',
      '| held at the first kill | delivered at the second kill | delivered | lost | duplicate success records | held records left | deliveries not final | extra requests (same webhook-id) |',
      '|---|---|---|---|---|---|---|---|',
      `| ${crashed.heldAtFirstKill} | ${crashed.deliveredAtSecondKill} | ${crashed.delivered} | **${crashed.lost}** | ${crashed.duplicateSuccessRecords} | ${crashed.heldRecordsLeft} | ${crashed.openDeliveries} | ${crashed.extraRequests} |`,
      '',
      'Extra requests are attempts in flight at the second kill, sent again after the restart',
      'with the same `webhook-id` (receivers following Standard Webhooks drop them).',
    ].join('\n');
    console.log(body);
    await writeBenchmarkSection('Attention: quiet hours and crashes', body);
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
