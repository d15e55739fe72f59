import { request as httpRequest } from 'node:http';
import type { Response } from 'supertest';
import { launchChromium } from '../console/console-browser';
import { startTestApp, type TestApp } from '../support/test-app';

interface RawResponse {
  status: number;
  allow: string | undefined;
  body: unknown;
}

/**
 * A request whose target is sent exactly as written: an HTTP client that parses URLs the WHATWG
 * way would turn `/docs/%2e%2e/package.json` into `/package.json` before sending it.
 */
function rawGet(baseUrl: string, target: string): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: hostname, port, method: 'GET', path: target },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            allow: response.headers.allow,
            body: response.headers['content-type']?.startsWith('application/json')
              ? (JSON.parse(text) as unknown)
              : text,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Lines of error level or above that `action` made the service log. */
async function errorsLoggedDuring(action: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk, ...rest) => {
    lines.push(String(chunk));
    return write(chunk, ...(rest as []));
  });
  try {
    await action();
  } finally {
    spy.mockRestore();
  }
  return lines.filter((line) => /"level":"(error|fatal)"/.test(line));
}

describe('Documentation assets under /docs', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('should serve the Swagger UI and its assets when they exist', async () => {
    expect((await rawGet(testApp.baseUrl, '/docs/swagger-ui.css')).status).toBe(200);
    expect((await rawGet(testApp.baseUrl, '/docs/swagger-ui-init.js')).status).toBe(200);
  });

  function expectPageSecurityHeaders(response: Response): void {
    const policy = (response.headers['content-security-policy'] ?? '').split('; ');
    expect(policy).toEqual(
      expect.arrayContaining(["default-src 'self'", "frame-ancestors 'none'"]),
    );
    expect(policy.find((directive) => directive.startsWith('script-src'))).toBe(
      "script-src 'self'",
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
  }

  it('should send the page security headers with the page and every file it loads', async () => {
    const page = await testApp.http.get('/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expectPageSecurityHeaders(page);
    const files = [...page.text.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map(
      (match) => new URL(match[1], `${testApp.baseUrl}/docs`).pathname,
    );
    expect(files).toEqual(
      expect.arrayContaining([
        '/docs/swagger-ui.css',
        '/docs/swagger-ui-bundle.js',
        '/docs/swagger-ui-standalone-preset.js',
        '/docs/swagger-ui-init.js',
        '/docs/favicon-32x32.png',
      ]),
    );
    for (const file of files) {
      const response = await testApp.http.get(file);
      expect({ file, status: response.status }).toEqual({ file, status: 200 });
      expectPageSecurityHeaders(response);
    }
  });

  it('should render Swagger UI in a browser without a refusal of its policy', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${testApp.baseUrl}/docs`);
      await page.locator('.swagger-ui .info .title').getByText('Task Monitor API').waitFor();
      await page.locator('.opblock').first().waitFor();
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it.each(['/docs/no-such-file.js', '/docs/no-such-directory/', '/docs/swagger-ui.css/extra'])(
    'should answer 404 {"detail":"Not Found"} when %s does not exist',
    async (target) => {
      const errors = await errorsLoggedDuring(async () => {
        expect(await rawGet(testApp.baseUrl, target)).toEqual({
          status: 404,
          allow: undefined,
          body: { detail: 'Not Found' },
        });
      });
      expect(errors).toEqual([]);
    },
  );

  it.each([
    '/docs/%2e%2e/package.json',
    '/docs/%2E%2E/%2E%2E/package.json',
    '/docs/..%2fpackage.json',
    '/docs/%2e%2e%2f%2e%2e%2fpackage.json',
    '/docs/%2e%2e',
    '/docs/..%5cpackage.json',
  ])(
    'should answer 404 {"detail":"Not Found"} and log no error when %s climbs out of the assets',
    async (target) => {
      const errors = await errorsLoggedDuring(async () => {
        expect(await rawGet(testApp.baseUrl, target)).toEqual({
          status: 404,
          allow: undefined,
          body: { detail: 'Not Found' },
        });
      });
      expect(errors).toEqual([]);
    },
  );
});
