/**
 * Crash test for checks: `kill -9` of the only worker while checks are in flight, then a restart.
 * Every due check must still finish, none may stay `running`, and no task may get two results.
 */
import { type Pool } from 'pg';
import { checkReply, GeminiStandIn } from '../test/support/gemini-stand-in';
import {
  createDatabase,
  machineLine,
  openQueue,
  seedDueTasks,
  sleep,
  spawnService,
  startServer,
  writeBenchmarkSection,
} from './bench-support';

const TASKS = Number(process.env.BENCH_CRASH_TASKS ?? 1000);

async function counts(pool: Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ status: string; count: number }>(
    'SELECT status, count(*)::int AS count FROM executions GROUP BY status',
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}

async function main(): Promise<void> {
  const server = await startServer();
  const gemini = await new GeminiStandIn().start();
  gemini.recordRequests = false;
  // Slow enough that many checks are in flight when the worker dies.
  gemini.respondWith({ delayMs: 300, then: checkReply({ conditionMet: false }) });
  try {
    const databaseUrl = await createDatabase(server.adminUrl, 'bench_checks_crash');
    const env = {
      DATABASE_URL: databaseUrl,
      GEMINI_API_KEY: gemini.apiKey,
      GEMINI_BASE_URL: gemini.baseUrl,
      WORKER_CONCURRENCY: '100',
    };
    const first = await spawnService(env);
    const { pool, boss } = await openQueue(databaseUrl);
    await seedDueTasks(pool, boss, TASKS, TASKS, 2000);
    await boss.stop({ graceful: false, close: true });
    for (;;) {
      if ((await counts(pool)).success >= TASKS * 0.3) break;
      await sleep(50);
    }
    const atKill = await counts(pool);
    await first.stop('SIGKILL');
    const killedAt = Date.now();
    const second = await spawnService(env);
    let settled: Record<string, number> = {};
    for (;;) {
      settled = await counts(pool);
      const { rows } = await pool.query<{ done: number }>(
        "SELECT count(DISTINCT task_id)::int AS done FROM executions WHERE status IN ('success', 'failed')",
      );
      const inFlight = (settled.running ?? 0) + (settled.pending ?? 0) + (settled.retrying ?? 0);
      if ((rows[0].done >= TASKS && inFlight === 0) || Date.now() - killedAt > 300_000) break;
      await sleep(250);
    }
    const recoverySeconds = (Date.now() - killedAt) / 1000;
    const { rows } = await pool.query<{ tasks: number; results: number; stuck: number }>(
      `SELECT count(DISTINCT task_id) FILTER (WHERE status = 'success')::int AS tasks,
              count(*) FILTER (WHERE status IN ('success', 'failed'))::int AS results,
              count(*) FILTER (WHERE status IN ('running', 'pending', 'retrying'))::int AS stuck
       FROM executions`,
    );
    await second.stop();
    await pool.end();
    const { tasks, results, stuck } = rows[0];
    const body = [
      `Measured ${machineLine()}.`,
      '',
      `${TASKS} due checks, provider answering after 300 ms, one worker killed with SIGKILL after ${atKill.success ?? 0} had finished (${atKill.running ?? 0} running), then a new process started on the same database.`,
      '',
      '| finished with success | missed | duplicate results | left running/pending | time from kill to all finished (s) |',
      '|---|---|---|---|---|',
      `| ${tasks} | ${TASKS - tasks} | ${results - tasks} | ${stuck} | ${recoverySeconds.toFixed(1)} |`,
      '',
      `Final execution statuses: ${JSON.stringify(settled)}.`,
    ].join('\n');
    console.log(body);
    await writeBenchmarkSection('Checks: crash recovery', body);
  } finally {
    await gemini.stop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
