import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDatabase } from '../../src/database/embedded/embedded-database';

/**
 * With `DATABASE_URL` set, tests use that server (CI: Debian's PostgreSQL). Without it they use
 * the same embedded PostgreSQL that `npm start` runs. Either way each test file then creates a
 * database of its own from this server (see `test-app.ts`).
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    process.env.TEST_ADMIN_DATABASE_URL = process.env.DATABASE_URL;
    return;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'monitor-test-db-'));
  const embedded = new EmbeddedDatabase(dataDir, {
    log: () => undefined,
    warn: (message) => console.warn(message),
  });
  process.env.TEST_ADMIN_DATABASE_URL = await embedded.start();
  Object.assign(globalThis, { __embeddedDatabase: embedded, __embeddedDataDir: dataDir });
}
