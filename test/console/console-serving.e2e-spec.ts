import { buildConsole, SCRIPT_GZIP_LIMIT_BYTES, type ConsoleBuild } from '../../console/build';
import { expectDetail } from '../support/errors';
import { startTestApp, type TestApp } from '../support/test-app';

/** The console is the service's own page, its own assets, under a strict policy (docs/api.md). */
describe('Console: serving /console', () => {
  let built: ConsoleBuild;
  let testApp: TestApp;

  beforeAll(async () => {
    built = await buildConsole();
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  function expectSecurityHeaders(headers: Record<string, string>): void {
    expect(headers['content-security-policy']).toMatch(/(^|; )default-src 'self'(;|$)/);
    expect(headers['content-security-policy']).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(headers['content-security-policy']).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
    expect(headers['content-security-policy']).not.toContain('unsafe');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
  }

  it.each(['/console', '/console/'])(
    'should serve the page with its hashed assets and no inline script when %s is asked',
    async (path) => {
      const response = await testApp.http.get(path).expect(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expectSecurityHeaders(response.headers);
      const html = response.text;
      expect(html).toContain(`<script defer src="/console/assets/${built.script}"></script>`);
      expect(html).toContain(
        `<link rel="stylesheet" href="/console/assets/${built.stylesheet}" />`,
      );
      // Every script is a file of its own, and no element carries a style of its own.
      expect(html.match(/<script[^>]*>/g)).toEqual([
        `<script defer src="/console/assets/${built.script}">`,
      ]);
      expect(html).not.toMatch(/<style|style=/);
      expect(html).toContain('<meta name="auth" content="required" />');
    },
  );

  it('should serve the hashed assets as immutable for a year', async () => {
    const script = await testApp.http.get(`/console/assets/${built.script}`).expect(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(script.headers);
    const style = await testApp.http.get(`/console/assets/${built.stylesheet}`).expect(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(style.headers);
  });

  it('should keep the console script within 150 kB gzipped', () => {
    expect(SCRIPT_GZIP_LIMIT_BYTES).toBe(150 * 1024);
    expect(built.scriptGzipBytes).toBeLessThanOrEqual(SCRIPT_GZIP_LIMIT_BYTES);
  });

  it.each([
    '/console/assets/app-unknown.js',
    '/console/assets/..%2f..%2fpackage.json',
    '/console/assets/%2e%2e',
    '/console/index.html',
    '/console/tasks',
  ])('should answer 404 {"detail":"Not Found"} when %s is asked', async (path) => {
    expectDetail(await testApp.http.get(path), 404, 'Not Found');
  });

  it('should send a browser from / to the console with a 302', async () => {
    const response = await testApp.http.get('/').expect(302);
    expect(response.headers.location).toBe('/console');
  });

  it('should say in the page that no key is needed when AUTH_DISABLED=true', async () => {
    const open = await startTestApp({ env: { AUTH_DISABLED: 'true' } });
    try {
      const response = await open.http.get('/console').expect(200);
      expect(response.text).toContain('<meta name="auth" content="disabled" />');
    } finally {
      await open.close();
    }
  });

  it('should answer 404 {"detail":"Not Found"} at /, /console and its assets when CONSOLE_ENABLED=false', async () => {
    const off = await startTestApp({ env: { CONSOLE_ENABLED: 'false' } });
    try {
      expectDetail(await off.http.get('/'), 404, 'Not Found');
      expectDetail(await off.http.get('/console'), 404, 'Not Found');
      expectDetail(await off.http.get(`/console/assets/${built.script}`), 404, 'Not Found');
    } finally {
      await off.close();
    }
  });
});
