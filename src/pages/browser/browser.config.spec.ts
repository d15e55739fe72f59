import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../../config/config-slice';
import { browserConfig, hasBrowser } from './browser.config';

const read = (env: Record<string, string>) => readConfig(env, { browser: browserConfig }).browser;

describe('browserConfig', () => {
  const folder = mkdtempSync(join(tmpdir(), 'browser-config-'));
  const executable = (name: string, inFolder = folder): string => {
    const path = join(inFolder, name);
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, 0o755);
    return path;
  };
  const second = executable('chromium-browser');
  const plainFile = join(folder, 'chromium');
  writeFileSync(plainFile, 'not executable');

  it('should find the first of the headless shell, chromium, chromium-browser, google-chrome on PATH that can be run', () => {
    expect(read({ PATH: `/nonexistent:${folder}` }).chromiumPath).toBe(second);
    expect(read({ PATH: '/nonexistent' }).chromiumPath).toBeNull();
    const otherFolder = mkdtempSync(join(tmpdir(), 'browser-config-'));
    const shell = executable('chromium-headless-shell', otherFolder);
    expect(read({ PATH: `${folder}:${otherFolder}` }).chromiumPath).toBe(shell);
  });

  it('should find chrt on PATH, to start Chromium under the idle scheduling policy', () => {
    const chrt = executable('chrt');
    expect(read({ PATH: `/nonexistent:${folder}` }).chrtPath).toBe(chrt);
    expect(read({ PATH: '/nonexistent' }).chrtPath).toBeNull();
  });

  it('should take CHROMIUM_PATH as it is, and count one naming no executable file as none', () => {
    expect(read({ CHROMIUM_PATH: second, PATH: '' }).chromiumPath).toBe(second);
    expect(read({ CHROMIUM_PATH: plainFile, PATH: folder }).chromiumPath).toBeNull();
    expect(read({ CHROMIUM_PATH: folder, PATH: folder }).chromiumPath).toBeNull();
  });

  it('should read BROWSER_WS_ENDPOINT, with or without a Chromium, as a browser', () => {
    const remote = read({ BROWSER_WS_ENDPOINT: 'ws://browser:3000/playwright', PATH: '' });
    expect(remote.wsEndpoint).toBe('ws://browser:3000/playwright');
    expect(hasBrowser(remote)).toBe(true);
    expect(hasBrowser(read({ PATH: '' }))).toBe(false);
    expect(() => read({ BROWSER_WS_ENDPOINT: 'http://browser:3000/' })).toThrow(
      'BROWSER_WS_ENDPOINT: expected a ws: or wss: URL',
    );
  });

  it('should read BROWSER_PAGES_AT_ONCE with 2 by default, and BROWSER_PROXY_HOST with 127.0.0.1', () => {
    expect(read({})).toMatchObject({ pagesAtOnce: 2, proxyHost: '127.0.0.1' });
    expect(read({ BROWSER_PAGES_AT_ONCE: '4', BROWSER_PROXY_HOST: 'app' })).toMatchObject({
      pagesAtOnce: 4,
      proxyHost: 'app',
    });
    expect(() => read({ BROWSER_PAGES_AT_ONCE: '0' })).toThrow(
      'BROWSER_PAGES_AT_ONCE: expected an integer from 1 to 16, got "0"',
    );
  });
});
