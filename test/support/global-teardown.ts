import type { EmbeddedDatabase } from '../../src/database/embedded-database';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __embeddedDatabase?: EmbeddedDatabase }).__embeddedDatabase?.stop();
}
