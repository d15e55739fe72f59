/**
 * Lock conflicts under load (docs/architecture.md, "One lock order"): two instances on one
 * database, 32 clients for 60 s mixing execute (with and without force), updates and state changes,
 * deletes racing test sends, forks, and admin deactivations, while the scheduler claims due checks
 * every second and deliveries run. Counts 5xx answers, PostgreSQL's deadlocks, executions left in
 * flight after the drain and queued checks of deactivated users. The e2e spec
 * (test/platform/lock-conflicts.e2e-spec.ts) runs the same load for 12 s.
 */
import { Factory } from '../test/support/factory';
import { GeminiStandIn } from '../test/support/gemini-stand-in';
import {
  describeLockLoad,
  LOCK_LOAD_ENV,
  runLockConflictLoad,
} from '../test/support/lock-conflict-load';
import { startTestApp } from '../test/support/test-app';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { machineLine, startServer, writeBenchmarkSection } from './bench-support';

const DURATION_MS = 60_000;
const CLIENTS = 32;

async function main(): Promise<void> {
  const server = await startServer();
  // startTestApp creates its database through this server.
  process.env.TEST_ADMIN_DATABASE_URL = server.adminUrl;
  const gemini = await new GeminiStandIn().start();
  const receiver = await new WebhookReceiver().start();
  const first = await startTestApp({ gemini, env: LOCK_LOAD_ENV });
  const second = await startTestApp({
    gemini,
    env: LOCK_LOAD_ENV,
    databaseUrl: first.databaseUrl,
    jwks: first.jwks,
  });
  try {
    const result = await runLockConflictLoad({
      targets: [first, second],
      factory: new Factory(first),
      db: first.db,
      gemini,
      receiver,
      durationMs: DURATION_MS,
      clients: CLIENTS,
      users: 24,
      tasksPerUser: 4,
      deactivateEveryMs: 2_000,
    });
    const errors = new Map<string, number>();
    for (const error of result.serverErrors) {
      const key = `${error.operation} ${error.status}`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
    }
    const body = [
      `Measured ${machineLine()}.`,
      '',
      `Two instances on one database, ${CLIENTS} clients for ${DURATION_MS / 1000} s: execute (with and without force), update, state change, delete racing a test send and a forced run, fork, test send, and an admin deactivation every 2 s, while due checks are claimed every second and deliveries run.`,
      '',
      `Result: ${describeLockLoad(result)}.`,
      ...(errors.size > 0
        ? ['', `5xx by operation: ${JSON.stringify(Object.fromEntries(errors))}.`]
        : []),
    ].join('\n');
    console.log(body);
    await writeBenchmarkSection('Lock conflicts under mixed load', body);
  } finally {
    await second.close();
    await first.close();
    await receiver.stop();
    await gemini.stop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
