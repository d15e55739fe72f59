/**
 * Writes the console's generated files (docs/console.md, "Generated files"):
 * `app/api-types.ts`, the API's shapes as openapi-typescript reads them from the API document,
 * and `app/channel-list.ts`, the channels' forms from the channel registry. With `--check` it
 * writes nothing and fails naming every file that is out of date (a test runs it so).
 *
 *   npx ts-node --transpile-only console/generate.ts
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { loadConfig } from '../src/app.config';
import { createRootLogger } from '../src/common/logging/root-logger';
import { LOG_SECRETS } from '../src/log-secrets';
import { CHANNELS } from '../src/notifications/channels/channel-registry';
import { previewOpenApiDocument } from '../src/openapi-document';
import { channelListSource } from './channel-forms';

const APP_DIR = join(__dirname, 'app');

/** The API document of an instance with every default, as openapi-typescript types it. */
async function apiTypesSource(): Promise<string> {
  const logger = createRootLogger({ level: 'error', secrets: LOG_SECRETS });
  const document = await previewOpenApiDocument(loadConfig({}), logger);
  const types = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
  return [
    '// Written by console/generate.ts from the API document (GET /openapi.json) with',
    '// openapi-typescript: change the API, not this file.',
    '',
    types,
  ].join('\n');
}

async function formatted(path: string, source: string): Promise<string> {
  return format(source, { ...(await resolveConfig(path)), filepath: path });
}

async function main(check: boolean): Promise<number> {
  const sources: Record<string, string> = {
    'api-types.ts': await apiTypesSource(),
    'channel-list.ts': channelListSource(CHANNELS),
  };
  const stale: string[] = [];
  for (const [name, source] of Object.entries(sources)) {
    const path = join(APP_DIR, name);
    const wanted = await formatted(path, source);
    const current = await readFile(path, 'utf8').catch(() => null);
    if (current === wanted) continue;
    stale.push(relative(process.cwd(), path));
    if (!check) await writeFile(path, wanted);
  }
  if (check && stale.length > 0) {
    console.error(
      `Out of date: ${stale.join(', ')}. Run npx ts-node --transpile-only console/generate.ts`,
    );
    return 1;
  }
  console.log(stale.length > 0 ? `Wrote ${stale.join(', ')}` : 'Up to date');
  return 0;
}

main(process.argv.includes('--check')).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
