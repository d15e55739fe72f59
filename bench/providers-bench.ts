/**
 * Check throughput per search provider (issue "Search beyond Gemini", measured section): N due
 * checks run by one instance against each provider's local stand-in answering at once, and the
 * HTTP calls each check made (1 for gemini, openai and perplexity, 2 for
 * searxng). The stand-ins run in this process, the service in its own, PostgreSQL beside them.
 */
import { loadavg } from 'node:os';
import { GeminiStandIn } from '../test/support/gemini-stand-in';
import { OpenAiStandIn } from '../test/support/openai-stand-in';
import { PerplexityStandIn } from '../test/support/perplexity-stand-in';
import { SearxngStandIn } from '../test/support/searxng-stand-in';
import type { RecordedRequest, WireStandIn } from '../test/support/wire-stand-in';
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
} from './bench-support';

const DUE_TASKS = Number(process.env.BENCH_DUE_TASKS ?? 5000);
const CONCURRENCY = process.env.BENCH_WORKER_CONCURRENCY ?? '200';

const STAND_INS: Array<() => WireStandIn<RecordedRequest<object>>> = [
  () => new GeminiStandIn(),
  () => new OpenAiStandIn(),
  () => new PerplexityStandIn(),
  () => new SearxngStandIn(),
];

interface Measured {
  provider: string;
  outcome: Outcome;
  callsPerCheck: number;
  usageRows: number;
}

async function measure(
  adminUrl: string,
  standIn: WireStandIn<RecordedRequest<object>>,
): Promise<Measured> {
  const provider = standIn.env().SEARCH_PROVIDER;
  const databaseUrl = await createDatabase(adminUrl, `bench_provider_${provider}`);
  const service = await spawnService({
    ...standIn.env(),
    DATABASE_URL: databaseUrl,
    WORKER_CONCURRENCY: CONCURRENCY,
  });
  const { pool, boss } = await openQueue(databaseUrl);
  try {
    const seeded = await seedDueTasks(pool, boss, DUE_TASKS, DUE_TASKS, 1500);
    standIn.requestCount = 0;
    const outcome = await awaitChecks(pool, seeded, 300_000);
    const { rows } = await pool.query<{ checks: number; usage_rows: number }>(
      `SELECT (SELECT count(*) FROM executions WHERE usage IS NOT NULL)::int AS checks,
              (SELECT count(*) FROM usage_events WHERE kind = 'check')::int AS usage_rows`,
    );
    return {
      provider,
      outcome,
      callsPerCheck: standIn.requestCount / rows[0].checks,
      usageRows: rows[0].usage_rows,
    };
  } finally {
    await boss.stop({ graceful: false, close: true });
    await pool.end();
    await service.stop();
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0].toFixed(2);
  const server = await startServer();
  const results: Measured[] = [];
  try {
    for (const create of STAND_INS) {
      const standIn = await create().start();
      standIn.recordRequests = false;
      try {
        results.push(await measure(server.adminUrl, standIn));
      } finally {
        await standIn.stop();
      }
    }
  } finally {
    await server.stop();
  }
  const body = [
    `Measured ${machineLine()}; ${DUE_TASKS} due checks, one instance, WORKER_CONCURRENCY=${CONCURRENCY}; each provider's stand-in answers at once (load average ${loadAtStart} at the start: the machine is shared). Run with \`npm run bench -- providers\`.`,
    '',
    '| provider | checks/s | seconds | HTTP calls per check | usage rows | duplicates | missed |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      ({ provider, outcome, callsPerCheck, usageRows }) =>
        `| ${provider} | ${outcome.checksPerSecond.toFixed(0)} | ${outcome.seconds.toFixed(2)} | ${callsPerCheck.toFixed(2)} | ${usageRows} | ${outcome.duplicates} | ${outcome.missed} |`,
    ),
    '',
    'The service, PostgreSQL and the stand-in share the two cores, so a check costs the service',
    'its claim and result writes (batched) plus one HTTP exchange per call and the JSON of the',
    'reply. SearXNG makes two calls per check (search, then the model), so it costs more CPU per',
    'check. Figures move between runs on this shared machine (a run at load average 5.4 gave',
    'gemini 991, openai 611, perplexity 1461, searxng 857 checks/s).',
  ].join('\n');
  console.log(body);
  await writeBenchmarkSection('Checks per provider', body);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
