/**
 * Check throughput and scheduling latency (issue "Monitoring core", performance section):
 *  A. N due checks, one instance and two instances on one database: checks/s, duplicates, missed.
 *  A'. The same with every task extracting a 10-property output_schema under an evidence rule
 *     (issue "Alerts people can trust"), taking turns with A: the ratio to A, and
 *     still one model call per check.
 *  B. 100,000 scheduled tasks with 1,000 due: due -> started p50/p99, and the plan of the claim query.
 *  C. Worker memory while 100,000 tasks are scheduled (RSS sampled during B).
 * The provider is the local Gemini stand-in answering at once ("zero latency"), every answer
 * grounded in the same two sources.
 *
 * With BENCH_BASELINE=<a checkout of another commit, built>, it runs only A, taking turns
 * between this build and that one, and writes the section "Checks against a baseline build":
 * how a change moved the check path, measured in one run on one machine.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { GeminiStandIn, checkReply } from '../test/support/gemini-stand-in';
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
  type SeededTaskFields,
  type ServiceProcess,
} from './bench-support';

const DUE_TASKS = Number(process.env.BENCH_DUE_TASKS ?? 5000);
const SCHEDULED_TASKS = Number(process.env.BENCH_SCHEDULED_TASKS ?? 100_000);
const CONCURRENCY = process.env.BENCH_WORKER_CONCURRENCY ?? '200';
/** Runs of each due-checks scenario; the one with the median checks/s is reported. */
const ROUNDS = 3;
const BASELINE = process.env.BENCH_BASELINE;

/** Ten values of every type a schema allows, as a product page would give them. */
const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    price: { type: 'number', description: 'The current price in the listed currency' },
    currency: { type: 'string', enum: ['USD', 'EUR', 'GBP'] },
    in_stock: { type: 'boolean', description: 'Whether the product can be ordered now' },
    units_left: { type: 'integer', description: 'Units left, when the page says' },
    rating: { type: 'number', description: 'Average review rating out of 5' },
    review_count: { type: 'integer', description: 'Number of reviews' },
    seller: { type: 'string', description: 'Who sells the product' },
    on_sale: { type: 'boolean', description: 'Whether a sale price is shown' },
    discount_percent: { type: 'integer', description: 'The discount of the sale price' },
    shipping_days: { type: 'integer', description: 'Days until delivery' },
  },
  required: ['price', 'currency', 'in_stock'],
};
const VALUES = {
  price: 19.99,
  currency: 'USD',
  in_stock: true,
  units_left: 42,
  rating: 4.5,
  review_count: 1280,
  seller: 'Example Store',
  on_sale: false,
  discount_percent: 0,
  shipping_days: 3,
};
/** Two distinct domains, one of them trusted: the rule is satisfied. */
const EVIDENCE = { min_domains: 2, trusted_domains: ['shop.example'], confirmations: 1 };
const SOURCES = [
  { uri: 'https://www.shop.example/products/42', title: 'Example product' },
  { uri: 'https://reviews.example.org/products/42', title: 'Reviews' },
];

interface Run {
  outcome: Outcome;
  rss: number[];
  plan: string;
  /** Model calls the stand-in answered per finished execution. */
  callsPerCheck: number;
  /** Finished executions without values or without a satisfied evidence report. */
  withoutValues: number;
}

async function scenario(
  adminUrl: string,
  gemini: GeminiStandIn,
  name: string,
  instances: number,
  total: number,
  due: number,
  fields: SeededTaskFields = {},
  entry?: string,
): Promise<Run> {
  const databaseUrl = await createDatabase(adminUrl, `bench_checks_${name}`);
  const env = {
    DATABASE_URL: databaseUrl,
    GEMINI_API_KEY: gemini.apiKey,
    GEMINI_BASE_URL: gemini.baseUrl,
    WORKER_CONCURRENCY: CONCURRENCY,
  };
  const services: ServiceProcess[] = [];
  for (let index = 0; index < instances; index += 1)
    services.push(await spawnService(env, [], entry));
  const { pool, boss } = await openQueue(databaseUrl);
  const rss: number[] = [await services[0].rssKb()];
  const seeded = await seedDueTasks(pool, boss, total, due, 1500, fields);
  rss.push(await services[0].rssKb());
  const callsBefore = gemini.requestCount;
  const sampler = setInterval(() => void services[0].rssKb().then((kb) => rss.push(kb)), 500);
  const outcome = await awaitChecks(pool, seeded, 300_000);
  clearInterval(sampler);
  const calls = gemini.requestCount - callsBefore;
  rss.push(await services[0].rssKb());
  const runs = await pool.query<{ finished: number; with_values: number }>(
    `SELECT count(*)::int AS finished,
       count(*) FILTER (WHERE output_values IS NOT NULL AND (evidence->>'satisfied')::boolean)::int AS with_values
     FROM executions WHERE completed_at IS NOT NULL`,
  );
  const plan = await pool.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN SELECT id FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND state < 'active' AND start_after < now()
     ORDER BY priority DESC, created_on, id LIMIT 50 FOR UPDATE SKIP LOCKED`,
    [CHECK_QUEUE],
  );
  await boss.stop({ graceful: false, close: true });
  await pool.end();
  for (const service of services) await service.stop();
  return {
    outcome,
    rss,
    plan: plan.rows.map((row) => row['QUERY PLAN']).join('\n'),
    callsPerCheck: calls / runs.rows[0].finished,
    withoutValues: runs.rows[0].finished - runs.rows[0].with_values,
  };
}

function medianRun(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.outcome.checksPerSecond - b.outcome.checksPerSecond);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Scenario A with this build and the baseline's taking turns, ROUNDS times each. */
async function compareWithBaseline(baseline: string): Promise<void> {
  const server = await startServer();
  const gemini = await new GeminiStandIn().start();
  gemini.recordRequests = false;
  gemini.respondWith(checkReply({ sources: SOURCES }));
  const baselineEntry = join(resolve(baseline), 'dist', 'main.js');
  try {
    const rows: string[] = [];
    for (const instances of [1, 2]) {
      const current: Run[] = [];
      const previous: Run[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        current.push(
          await scenario(
            server.adminUrl,
            gemini,
            `now_${instances}`,
            instances,
            DUE_TASKS,
            DUE_TASKS,
          ),
        );
        previous.push(
          await scenario(
            server.adminUrl,
            gemini,
            `base_${instances}`,
            instances,
            DUE_TASKS,
            DUE_TASKS,
            {},
            baselineEntry,
          ),
        );
      }
      const now = medianRun(current).outcome;
      const before = medianRun(previous).outcome;
      rows.push(
        `| ${DUE_TASKS} due, ${instances} instance${instances > 1 ? 's' : ''} | ${before.checksPerSecond.toFixed(0)} | ${now.checksPerSecond.toFixed(0)} | ${((now.checksPerSecond / before.checksPerSecond) * 100).toFixed(0)} % | ${now.duplicates} / ${now.missed} |`,
      );
    }
    const body = [
      `Measured ${machineLine()}; baseline: \`${baselineCommit(baseline)}\`, this build: \`${baselineCommit('.')}\`; the same stand-in and settings as "Checks". Each row is the median of ${ROUNDS} runs of each build, taking turns.`,
      '',
      '| scenario | baseline checks/s | this build checks/s | this build / baseline | duplicates / missed |',
      '|---|---|---|---|---|',
      ...rows,
    ].join('\n');
    console.log(body);
    await writeBenchmarkSection('Checks against a baseline build', body);
  } finally {
    await gemini.stop();
    await server.stop();
  }
}

function baselineCommit(dir: string): string {
  return execFileSync('git', ['-C', dir, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' })
    .trim()
    .slice(0, 100);
}

async function main(): Promise<void> {
  if (BASELINE) return compareWithBaseline(BASELINE);
  const server = await startServer();
  const gemini = await new GeminiStandIn().start();
  gemini.recordRequests = false;
  const plainReply = checkReply({ sources: SOURCES });
  const schemaReply = checkReply({ sources: SOURCES, values: VALUES });
  const schemaFields = { outputSchema: OUTPUT_SCHEMA, evidence: EVIDENCE };
  try {
    // Plain and schema runs take turns, ROUNDS times each: one disturbed run does not decide.
    const alternate = async (instances: number): Promise<[Run, Run]> => {
      const plain: Run[] = [];
      const schema: Run[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        gemini.respondWith(plainReply);
        plain.push(
          await scenario(
            server.adminUrl,
            gemini,
            `plain_${instances}`,
            instances,
            DUE_TASKS,
            DUE_TASKS,
          ),
        );
        gemini.respondWith(schemaReply);
        schema.push(
          await scenario(
            server.adminUrl,
            gemini,
            `schema_${instances}`,
            instances,
            DUE_TASKS,
            DUE_TASKS,
            schemaFields,
          ),
        );
      }
      return [medianRun(plain), medianRun(schema)];
    };
    const [one, schemaOne] = await alternate(1);
    const [two, schemaTwo] = await alternate(2);
    gemini.respondWith(plainReply);
    const big = await scenario(server.adminUrl, gemini, 'big', 1, SCHEDULED_TASKS, 1000);
    const row = (label: string, run: Run): string =>
      `| ${label} | ${run.outcome.checksPerSecond.toFixed(0)} | ${run.outcome.seconds.toFixed(2)} | ${run.outcome.duplicates} | ${run.outcome.missed} | ${run.outcome.p50Ms.toFixed(0)} | ${run.outcome.p99Ms.toFixed(0)} | ${run.callsPerCheck.toFixed(2)} |`;
    const ratio = (schema: Run, plain: Run): string =>
      `${((schema.outcome.checksPerSecond / plain.outcome.checksPerSecond) * 100).toFixed(0)} %`;
    const mb = (kb: number): string => (kb / 1024).toFixed(0);
    const schemaLabel = 'every task with a 10-property output_schema and an evidence rule';
    const body = [
      `Measured ${machineLine()}; provider: local Gemini stand-in answering at once, two source domains per answer; WORKER_CONCURRENCY=${CONCURRENCY}. Each due-checks row is the median of ${ROUNDS} runs, the plain and the schema runs taking turns.`,
      '',
      '| scenario | checks/s | seconds | duplicates | missed | due→started p50 (ms) | p99 (ms) | model calls per check |',
      '|---|---|---|---|---|---|---|---|',
      row(`${DUE_TASKS} due, 1 instance`, one),
      row(`${DUE_TASKS} due, 2 instances`, two),
      row(`${DUE_TASKS} due, 1 instance, ${schemaLabel}`, schemaOne),
      row(`${DUE_TASKS} due, 2 instances, ${schemaLabel}`, schemaTwo),
      row(`${SCHEDULED_TASKS} scheduled, 1000 due, 1 instance`, big),
      '',
      `With the schema and the evidence rule: ${ratio(schemaOne, one)} of the plain checks/s with one instance, ${ratio(schemaTwo, two)} with two; every execution carries values and satisfied evidence.`,
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
    const wrong = [
      ...[one, two, schemaOne, schemaTwo, big]
        .filter((run) => run.callsPerCheck !== 1)
        .map((run) => `${run.callsPerCheck} model calls per check`),
      ...[schemaOne, schemaTwo]
        .filter((run) => run.withoutValues > 0)
        .map((run) => `${run.withoutValues} executions without values or satisfied evidence`),
    ];
    if (wrong.length > 0) throw new Error(`Checks benchmark: ${wrong.join('; ')}`);
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
