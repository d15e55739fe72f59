/**
 * Check throughput and scheduling latency (issue "Monitoring core", performance section):
 *  A. N due checks, one instance and two instances on one database: checks/s, duplicates, missed.
 *  B. 100,000 scheduled tasks with 1,000 due: due -> started p50/p99, and the plan of the claim query.
 *  C. Worker memory while 100,000 tasks are scheduled (RSS sampled during B).
 * The provider is the local Gemini stand-in answering at once ("zero latency").
 */
import { GeminiStandIn } from '../test/support/gemini-stand-in';
import { CHECK_QUEUE, QUEUE_SCHEMA } from '../src/scheduler/job-queue.service';
import {
  awaitChecks,
  createDatabase,
  machineLine,
  openQueue,
  seedDueTasks,
  spawnService,
  startServer,
  writeBenchmarkSection,
  type Outcome,
  type ServiceProcess,
} from './bench-support';

const DUE_TASKS = Number(process.env.BENCH_DUE_TASKS ?? 5000);
const SCHEDULED_TASKS = Number(process.env.BENCH_SCHEDULED_TASKS ?? 100_000);
const CONCURRENCY = process.env.BENCH_WORKER_CONCURRENCY ?? '200';

async function scenario(
  adminUrl: string,
  gemini: GeminiStandIn,
  name: string,
  instances: number,
  total: number,
  due: number,
): Promise<{ outcome: Outcome; rss: number[]; plan: string }> {
  const databaseUrl = await createDatabase(adminUrl, `bench_checks_${name}`);
  const env = {
    DATABASE_URL: databaseUrl,
    GEMINI_API_KEY: gemini.apiKey,
    GEMINI_BASE_URL: gemini.baseUrl,
    WORKER_CONCURRENCY: CONCURRENCY,
  };
  const services: ServiceProcess[] = [];
  for (let index = 0; index < instances; index += 1) services.push(await spawnService(env));
  const { pool, boss } = await openQueue(databaseUrl);
  const rss: number[] = [await services[0].rssKb()];
  const seeded = await seedDueTasks(pool, boss, total, due, 1500);
  rss.push(await services[0].rssKb());
  const sampler = setInterval(() => void services[0].rssKb().then((kb) => rss.push(kb)), 500);
  const outcome = await awaitChecks(pool, seeded, 300_000);
  clearInterval(sampler);
  rss.push(await services[0].rssKb());
  const plan = await pool.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN SELECT id FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND state < 'active' AND start_after < now()
     ORDER BY priority DESC, created_on, id LIMIT 50 FOR UPDATE SKIP LOCKED`,
    [CHECK_QUEUE],
  );
  await boss.stop({ graceful: false, close: true });
  await pool.end();
  for (const service of services) await service.stop();
  return { outcome, rss, plan: plan.rows.map((row) => row['QUERY PLAN']).join('\n') };
}

async function main(): Promise<void> {
  const server = await startServer();
  const gemini = await new GeminiStandIn().start();
  gemini.recordRequests = false;
  try {
    const one = await scenario(server.adminUrl, gemini, 'one', 1, DUE_TASKS, DUE_TASKS);
    const two = await scenario(server.adminUrl, gemini, 'two', 2, DUE_TASKS, DUE_TASKS);
    const big = await scenario(server.adminUrl, gemini, 'big', 1, SCHEDULED_TASKS, 1000);
    const row = (label: string, outcome: Outcome): string =>
      `| ${label} | ${outcome.checksPerSecond.toFixed(0)} | ${outcome.seconds.toFixed(2)} | ${outcome.duplicates} | ${outcome.missed} | ${outcome.p50Ms.toFixed(0)} | ${outcome.p99Ms.toFixed(0)} |`;
    const mb = (kb: number): string => (kb / 1024).toFixed(0);
    const body = [
      `Measured ${machineLine()}; provider: local Gemini stand-in answering at once; WORKER_CONCURRENCY=${CONCURRENCY}.`,
      '',
      '| scenario | checks/s | seconds | duplicates | missed | due→started p50 (ms) | p99 (ms) |',
      '|---|---|---|---|---|---|---|',
      row(`${DUE_TASKS} due, 1 instance`, one.outcome),
      row(`${DUE_TASKS} due, 2 instances`, two.outcome),
      row(`${SCHEDULED_TASKS} scheduled, 1000 due, 1 instance`, big.outcome),
      '',
      `Worker memory (RSS) with ${SCHEDULED_TASKS} scheduled tasks: ${mb(big.rss[0])} MiB before seeding, ${mb(big.rss[1])} MiB after, max ${mb(Math.max(...big.rss))} MiB while the due checks ran, ${mb(big.rss[big.rss.length - 1])} MiB at the end (the schedule lives in PostgreSQL, not in memory).`,
      '',
      `Claim query plan with ${SCHEDULED_TASKS} jobs queued (pg-boss fetch, index \`job_i5\` on (name, start_after) WHERE state < 'active'):`,
      '',
      '```',
      big.plan,
      '```',
    ].join('\n');
    console.log(body);
    await writeBenchmarkSection('Checks', body);
  } finally {
    await gemini.stop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
