import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The service's package name and version, read from `package.json`, two levels up from this file
 * both in `src/config/` and compiled in `dist/config/`.
 */
export const PACKAGE_INFO: { name: string; version: string } = (() => {
  const { name, version } = JSON.parse(
    readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8'),
  ) as { name: string; version: string };
  return { name, version };
})();
