/**
 * Notification delivery benchmarks (issue "Notifications that are never lost"):
 *  1. Throughput: N webhook deliveries queued at once, one instance of the built service, a local
 *     receiver: deliveries/s from "due" to the last send record, and due -> received latency.
 *  2. Crash: 1,000 deliveries, `kill -9` of the service mid-way, restart: lost deliveries (must be
 *     0), duplicate requests per webhook-id at the receiver, duplicate success records.
 *
 * Run: `npx ts-node --transpile-only bench/notifications-bench.ts` (builds the service first;
 * BENCH_SKIP_BUILD=1 skips that). Uses DATABASE_URL when set, else an embedded PostgreSQL.
 * Knobs: BENCH_DELIVERIES (20,000), BENCH_THROUGHPUT_RUNS (3), BENCH_CRASH_DELIVERIES (1,000),
 * BENCH_ONLY_THROUGHPUT=1 (skip the crash run and BENCHMARKS.md), BENCH_SERVICE_NODE_ARGS.
 */
import type { Pool } from 'pg';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { postgresCpuSeconds, processCpuSeconds, rssKb } from './notifications-cpu';
import {
  createDatabase,
  openQueue,
  percentile,
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
const CRASH_DELIVERIES = Number(process.env.BENCH_CRASH_DELIVERIES ?? 1000);
/** The machine may be shared: the throughput run is repeated and the median reported. */
const THROUGHPUT_RUNS = Number(process.env.BENCH_THROUGHPUT_RUNS ?? 3);
/** The crash run's receiver answers this slowly, so many attempts are in flight at the kill. */
const CRASH_RECEIVER_DELAY_MS = 200;

const delivered = (pool: Pool): Promise<number> => countSends(pool, 'success');

interface ThroughputResult {
  seconds: number;
  perSecond: number;
  delivered: number;
  failedRecords: number;
  duplicates: number;
  p50Ms: number;
  p99Ms: number;
  rssMb: number;
  /** CPU milliseconds per delivery: the service, PostgreSQL, the receiver (this process). */
  cpuMs: { service: number; postgres: number; receiver: number };
}

async function throughput(adminUrl: string): Promise<ThroughputResult> {
  const databaseUrl = await createDatabase(adminUrl, 'bench_notifications_throughput');
  const port = Number(new URL(databaseUrl).port || 5432);
  const receiver = await new WebhookReceiver().start();
  receiver.recordRequests = false;
  const service = await startService(deliveryServiceEnv(databaseUrl));
  const { pool, boss } = await openQueue(databaseUrl);
  try {
    const seeded = await seedDeliveries(
      pool,
      boss,
      DELIVERIES,
      [webhookConfig(`${receiver.url}/throughput`)],
      3000 + DELIVERIES / 5,
    );
    while (Date.now() < seeded.dueAt.getTime()) await sleep(5);
    const cpu = {
      service: processCpuSeconds(service.child.pid),
      postgres: postgresCpuSeconds(port),
      receiver: process.cpuUsage(),
    };
    const done = await waitForSends(pool, 'success', DELIVERIES, 300_000);
    const finishedAt = Date.now();
    const receiverCpu = process.cpuUsage(cpu.receiver);
    const perDelivery = (seconds: number): number => (seconds * 1000) / done;
    const cpuMs = {
      service: perDelivery(processCpuSeconds(service.child.pid) - cpu.service),
      postgres: perDelivery(postgresCpuSeconds(port) - cpu.postgres),
      receiver: perDelivery((receiverCpu.user + receiverCpu.system) / 1e6),
    };
    const rssMb = rssKb(service.child.pid) / 1024;
    const { rows } = await pool.query<{ failed: number }>(
      "SELECT count(*)::int AS failed FROM notification_sends WHERE status = 'failed'",
    );
    const seconds = (finishedAt - seeded.dueAt.getTime()) / 1000;
    const latencies = receiver.arrivals
      .map((at) => Math.max(0, at - seeded.dueAt.getTime()))
      .sort((a, b) => a - b);
    return {
      seconds,
      perSecond: done / seconds,
      delivered: done,
      failedRecords: rows[0].failed,
      duplicates: [...receiver.countsById.values()].filter((count) => count > 1).length,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      rssMb,
      cpuMs,
    };
  } finally {
    await boss.stop({ graceful: false, close: true });
    await pool.end();
    await service.stop();
    await receiver.stop();
  }
}

interface CrashResult {
  receivedAtKill: number;
  recordedAtKill: number;
  recoverySeconds: number;
  delivered: number;
  lost: number;
  duplicateIds: number;
  extraRequests: number;
  duplicateSuccessRecords: number;
  stuckDeliveries: number;
}

async function crash(adminUrl: string): Promise<CrashResult> {
  const databaseUrl = await createDatabase(adminUrl, 'bench_notifications_crash');
  const receiver = await new WebhookReceiver().start();
  receiver.recordRequests = false;
  let service: RunningService = await startService(deliveryServiceEnv(databaseUrl));
  // Answers spread over 0..2x the delay, so attempts are always in flight when the kill comes.
  receiver.respondWith(() => ({
    status: 200,
    delayMs: Math.round(Math.random() * 2 * CRASH_RECEIVER_DELAY_MS),
  }));
  const { pool, boss } = await openQueue(databaseUrl);
  try {
    await seedDeliveries(
      pool,
      boss,
      CRASH_DELIVERIES,
      [webhookConfig(`${receiver.url}/crash`)],
      1000,
    );
    // kill -9 the moment half the deliveries are recorded: the rest are queued or in flight.
    while ((await delivered(pool)) < CRASH_DELIVERIES / 2) await sleep(10);
    await service.stop('SIGKILL');
    const receivedAtKill = receiver.count;
    const recordedAtKill = await delivered(pool);
    const restartedAt = Date.now();
    service = await startService(deliveryServiceEnv(databaseUrl));
    const done = await waitForSends(pool, 'success', CRASH_DELIVERIES, 300_000);
    const recoverySeconds = (Date.now() - restartedAt) / 1000;
    await sleep(2000); // anything still in flight lands before counting
    const { rows: duplicates } = await pool.query<{ extra: number }>(
      `SELECT coalesce(sum(n - 1), 0)::int AS extra FROM (
         SELECT count(*) AS n FROM notification_sends WHERE status = 'success'
         GROUP BY execution_id HAVING count(*) > 1) AS repeated`,
    );
    const { rows: stuck } = await pool.query<{ open: number }>(
      "SELECT count(*)::int AS open FROM notification_deliveries WHERE state NOT IN ('delivered', 'failed', 'skipped')",
    );
    const counts = [...receiver.countsById.values()];
    return {
      receivedAtKill,
      recordedAtKill,
      recoverySeconds,
      delivered: done,
      lost: CRASH_DELIVERIES - done,
      duplicateIds: counts.filter((count) => count > 1).length,
      extraRequests: counts.reduce((sum, count) => sum + count - 1, 0),
      duplicateSuccessRecords: duplicates[0].extra,
      stuckDeliveries: stuck[0].open,
    };
  } finally {
    await boss.stop({ graceful: false, close: true });
    await pool.end();
    await service.stop();
    await receiver.stop();
  }
}

async function main(): Promise<void> {
  const measuredOn = machine();
  if (process.env.BENCH_SKIP_BUILD !== '1') buildService();
  const server = await startServer();
  try {
    const runs: ThroughputResult[] = [];
    for (let run = 0; run < THROUGHPUT_RUNS; run += 1) {
      runs.push(await throughput(server.adminUrl));
      console.log(`throughput run ${run + 1}: ${runs[run].perSecond.toFixed(0)} deliveries/s`);
    }
    if (process.env.BENCH_ONLY_THROUGHPUT === '1') return;
    const two = await crash(server.adminUrl);
    const sorted = [...runs].sort((a, b) => a.perSecond - b.perSecond);
    const median = sorted[Math.floor(sorted.length / 2)];
    const body = [
      `Measured ${measuredOn}. Run with \`npx ts-node --transpile-only bench/notifications-bench.ts\`.`,
      'The service is built with `tsc -p tsconfig.build.json` (what `npm run build` runs) and',
      'started as its own process (`node main.js`, one instance, default settings), against',
      'PostgreSQL on the same two cores; the webhook receiver is a local HTTP server in the',
      'benchmark process, answering 200 at once (throughput) or after 0 to 400 ms (crash run).',
      '',
      '**1. Webhook throughput.** Deliveries queued all at once, exactly as the check runner',
      'queues them (one per met execution), timed from the moment they are due until every send',
      'record is written.',
      '',
      `${THROUGHPUT_RUNS} runs, one after the other (median in bold):`,
      '',
      '| run | deliveries | seconds | deliveries/s | failed records | duplicate webhook-ids | due→received p50 / p99 (ms) | CPU per delivery: service / PostgreSQL / receiver (ms) | service RSS (MiB) |',
      '|---|---|---|---|---|---|---|---|---|',
      ...runs.map((one, index) => {
        const rate = one.perSecond.toFixed(0);
        const cpu = one.cpuMs;
        return `| ${index + 1} | ${one.delivered} | ${one.seconds.toFixed(2)} | ${one === median ? `**${rate}**` : rate} | ${one.failedRecords} | ${one.duplicates} | ${one.p50Ms.toFixed(0)} / ${one.p99Ms.toFixed(0)} | ${cpu.service.toFixed(2)} / ${cpu.postgres.toFixed(2)} / ${cpu.receiver.toFixed(2)} | ${one.rssMb.toFixed(0)} |`;
      }),
      '',
      'The latency columns measure the backlog draining (all deliveries are due at the same',
      'instant), not the latency of one delivery.',
      '',
      `**2. Crash.** ${CRASH_DELIVERIES} deliveries; \`kill -9\` of the service as soon as half of`,
      'them are recorded; restart; wait until every delivery has a success record.',
      '',
      '| received at kill | recorded at kill | lost | duplicate webhook-ids at receiver | extra requests | duplicate success records | deliveries not final | restart → all delivered (s) |',
      '|---|---|---|---|---|---|---|---|',
      `| ${two.receivedAtKill} | ${two.recordedAtKill} | **${two.lost}** | ${two.duplicateIds} | ${two.extraRequests} | ${two.duplicateSuccessRecords} | ${two.stuckDeliveries} | ${two.recoverySeconds.toFixed(1)} |`,
      '',
      'The duplicates at the receiver are the attempts that were in flight (sent, not yet',
      'recorded) when the process died: after the restart they go out again with the same',
      '`webhook-id`, which a receiver following Standard Webhooks uses to drop them. Send records',
      'never duplicate: one per attempt, committed with the completion of its job. Recovery',
      "waits for the dead worker's heartbeat to go stale (30 s); its jobs then go back to the",
      'queue at the next sweep (every 10 s) instead of waiting for their 60 s expiry.',
    ].join('\n');
    console.log(body);
    await writeBenchmarkSection('Notifications', body);
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
