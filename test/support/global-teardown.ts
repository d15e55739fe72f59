import { rm } from 'node:fs/promises';
import type { EmbeddedDatabase } from '../../src/database/embedded/embedded-database';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis as { __embeddedDatabase?: EmbeddedDatabase; __embeddedDataDir?: string };
  await state.__embeddedDatabase?.stop();
  if (state.__embeddedDataDir) await rm(state.__embeddedDataDir, { recursive: true, force: true });
}
