import { Test, type TestingModule } from '@nestjs/testing';
import pino from 'pino';
import { ClockModule } from '../../src/common/clock/clock';
import { LoggingModule } from '../../src/common/logging/logging.module';
import { OutboundHttpModule } from '../../src/common/outbound/outbound-http.module';
import { AppConfigModule } from '../../src/config/config.module';
import { readConfig } from '../../src/config/config-slice';
import { PACKAGE_INFO } from '../../src/config/package-info';
import { serverConfig } from '../../src/config/server.config';
import { contentHash } from '../../src/pages/reading/page-comparison';
import { MAX_PAGE_BYTES, PAGE_FETCH_OPTIONS } from '../../src/pages/fetching/page-fetcher';
import { PageStage } from '../../src/pages/page-stage.service';
import type { PageSnapshot, PageTarget } from '../../src/pages/page.types';
import { PagesModule } from '../../src/pages/pages.module';
import { pagesConfig } from '../../src/pages/pages.config';
import { browserConfig } from '../../src/pages/browser/browser.config';
import { PageServer } from '../support/page-server';

const PUBLIC_URL = 'https://monitor.example.org';
const TIMEOUT_MS = 400;
/** The user whose pages these are. */
const USER = 'page-fetch-user';

async function pageStage(
  allowPrivateNetworks: boolean,
  timeoutMs = TIMEOUT_MS,
): Promise<TestingModule> {
  const slices = { server: serverConfig, pages: pagesConfig, browser: browserConfig };
  const config = readConfig({ PUBLIC_URL }, slices);
  const module = await Test.createTestingModule({
    imports: [
      AppConfigModule.forRoot(slices, config),
      LoggingModule.forRoot(pino({ level: 'silent' })),
      ClockModule,
      OutboundHttpModule.forRoot({ allowPrivateNetworks, dnsServers: [], isGlobal: true }),
      PagesModule,
    ],
  })
    // The page deadline, short so a slow page fails fast here.
    .overrideProvider(PAGE_FETCH_OPTIONS)
    .useFactory({
      factory: () => ({
        userAgent: `TaskMonitor/${PACKAGE_INFO.version} (+${PUBLIC_URL})`,
        timeoutMs,
      }),
    })
    .compile();
  return module.init();
}

describe('Page fetches against a local page server', () => {
  let server: PageServer;
  let open: TestingModule;
  let stage: PageStage;

  beforeAll(async () => {
    server = await new PageServer().start();
    open = await pageStage(true);
    stage = open.get(PageStage);
  });
  afterAll(async () => {
    await open.close();
    await server.stop();
  });

  const readOne = async (page: PageTarget, snapshot?: PageSnapshot) =>
    (await stage.readPages(USER, [page], new Map(snapshot ? [[page.url, snapshot]] : [])))[0];

  it('should send its user agent and the page headers, and read the text and title', async () => {
    const url = server.fixed('/hello', 200, 'text/html', '<title>Hello</title><h1>Hi</h1>');
    const result = await readOne({ url, headers: { Cookie: 'session=1', 'User-Agent': 'x' } });
    expect(result).toMatchObject({
      status: 'new',
      httpStatus: 200,
      title: 'Hello',
      text: 'Hi',
      finalUrl: url,
    });
    expect(server.requestsTo('/hello')[0].headers).toMatchObject({
      'user-agent': `TaskMonitor/${PACKAGE_INFO.version} (+${PUBLIC_URL})`,
      cookie: 'session=1',
      connection: 'keep-alive',
    });
  });

  it.each([503, 404, 500])('should read HTTP %i as an error of that status', async (status) => {
    const url = server.fixed(`/status-${status}`, status, 'text/html', '<p>Oops</p>');
    expect(await readOne({ url })).toMatchObject({
      status: 'error',
      error: `HTTP ${status}`,
      httpStatus: status,
      text: null,
    });
  });

  it('should send the last good validators and read a 304 as the same text', async () => {
    const url = server.page('/conditional', (request, response) => {
      if (request.headers['if-none-match'] === '"v1"') return response.writeHead(304).end();
      response
        .writeHead(200, {
          'content-type': 'text/plain',
          etag: '"v1"',
          'last-modified': 'Wed, 25 Nov 2026 10:00:00 GMT',
        })
        .end('version 1');
    });
    const first = await readOne({ url });
    const snapshot = {
      text: () => Promise.resolve(first.text),
      title: first.title,
      contentHash: first.contentHash ?? '',
      etag: first.etag ?? undefined,
      lastModified: first.lastModified ?? undefined,
    };
    const second = await readOne({ url }, snapshot);
    expect([first.status, first.etag, first.lastModified]).toEqual([
      'new',
      '"v1"',
      'Wed, 25 Nov 2026 10:00:00 GMT',
    ]);
    expect(second).toMatchObject({
      status: 'same',
      httpStatus: 304,
      text: null,
      contentHash: contentHash('version 1'),
    });
    expect(server.requestsTo('/conditional')[1].headers).toMatchObject({
      'if-none-match': '"v1"',
      'if-modified-since': 'Wed, 25 Nov 2026 10:00:00 GMT',
    });
  });

  it('should follow five redirects, and refuse a sixth', async () => {
    for (let hop = 0; hop < 6; hop++) server.redirect(`/hop-${hop}`, `/hop-${hop + 1}`);
    server.fixed('/hop-6', 200, 'text/plain', 'arrived');
    const five = await readOne({ url: `${server.origin}/hop-1` });
    const six = await readOne({ url: `${server.origin}/hop-0` });
    expect(five).toMatchObject({
      status: 'new',
      text: 'arrived',
      finalUrl: `${server.origin}/hop-6`,
    });
    expect(six).toMatchObject({ status: 'error', error: 'too many redirects' });
  });

  it('should not send the page headers to another origin it is redirected to', async () => {
    server.fixed('/elsewhere', 200, 'text/plain', 'other origin');
    const url = server.redirect('/to-elsewhere', `http://localhost:${server.port}/elsewhere`, 301);
    const result = await readOne({ url, headers: { Authorization: 'Bearer secret' } });
    expect(result).toMatchObject({
      status: 'new',
      finalUrl: `http://localhost:${server.port}/elsewhere`,
    });
    expect(server.requestsTo('/to-elsewhere')[0].headers.authorization).toBe('Bearer secret');
    expect(server.requestsTo('/elsewhere')[0].headers.authorization).toBeUndefined();
  });

  it('should decode an ISO-8859-1 header charset and a meta charset', async () => {
    const latin1 = Buffer.from('<p>Pr\u00e9cis \u00e0 80 EUR</p>', 'latin1');
    const header = server.fixed('/latin1', 200, 'text/html; charset=ISO-8859-1', latin1);
    const meta = server.fixed(
      '/meta',
      200,
      'text/html',
      Buffer.concat([
        Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'),
        latin1,
      ]),
    );
    const results = await stage.readPages(USER, [{ url: header }, { url: meta }], new Map());
    expect(results.map((result) => result.text)).toEqual([
      'Pr\u00e9cis \u00e0 80 EUR',
      'Pr\u00e9cis \u00e0 80 EUR',
    ]);
  });

  it('should time out a page that does not answer within its deadline, hops included', async () => {
    server.page('/slow', () => undefined);
    const url = server.redirect('/to-slow', '/slow');
    expect(await readOne({ url })).toMatchObject({
      status: 'error',
      error: 'timed out',
      finalUrl: `${server.origin}/slow`,
    });
  });

  it('should stop reading a page past 5 MB', async () => {
    const url = server.page('/huge', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(Buffer.alloc(MAX_PAGE_BYTES + 1024, 'a'));
    });
    // Reading 5 MB may take longer than the short deadline on a busy machine: only the size
    // may end this read.
    const patient = await pageStage(true, 30_000);
    try {
      const [result] = await patient.get(PageStage).readPages(USER, [{ url }], new Map());
      expect(result).toMatchObject({ status: 'error', error: 'too large' });
    } finally {
      await patient.close();
    }
  });

  it('should end a page whose body trickles a few bytes a second as timed out, long before its deadline', async () => {
    const url = server.page('/trickle', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      const trickle = setInterval(() => response.write('<p>'), 100);
      response.on('close', () => clearInterval(trickle));
    });
    // A deadline past the test's own: only the body's rate can end this page in time.
    const patient = await pageStage(true, 120_000);
    try {
      const [result] = await patient.get(PageStage).readPages(USER, [{ url }], new Map());
      expect(result).toMatchObject({ status: 'error', error: 'timed out', text: null });
    } finally {
      await patient.close();
    }
  });

  it('should read bot checks as blocked, with 503 and with 200', async () => {
    const challenge = server.fixed(
      '/challenge',
      503,
      'text/html',
      '<title>Just a moment...</title><body>Checking</body>',
    );
    const turnstile = server.fixed(
      '/turnstile',
      200,
      'text/html',
      '<body><div class="cf-turnstile"></div>Verify you are human</body>',
    );
    const results = await stage.readPages(
      USER,
      [{ url: challenge }, { url: turnstile }],
      new Map(),
    );
    expect(results.map((result) => [result.error, result.httpStatus])).toEqual([
      ['blocked by a bot check', 503],
      ['blocked by a bot check', 200],
    ]);
  });

  it('should fetch at most four pages of one host at a time', async () => {
    const held: Array<() => void> = [];
    let inFlight = 0;
    let mostInFlight = 0;
    let arrived = 0;
    const pages = Array.from({ length: 6 }, (_, index) =>
      server.page(`/busy-${index}`, (_request, response) => {
        inFlight += 1;
        arrived += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        held.push(() => {
          inFlight -= 1;
          response.writeHead(200, { 'content-type': 'text/plain' }).end(`page ${index}`);
        });
        if (held.length === 4 || arrived === 6) held.splice(0).forEach((release) => release());
      }),
    );
    // Two users, three pages each: only the host's limit holds them back.
    const results = (
      await Promise.all(
        ['first-user', 'second-user'].map((user, half) =>
          stage.readPages(
            user,
            pages.slice(half * 3, half * 3 + 3).map((url) => ({ url })),
            new Map(),
          ),
        ),
      )
    ).flat();
    expect(results.map((result) => result.text)).toEqual(pages.map((_, index) => `page ${index}`));
    expect(mostInFlight).toBe(4);
  });
});

describe('Page fetches with private networks not allowed', () => {
  let server: PageServer;
  let guarded: TestingModule;

  beforeAll(async () => {
    server = await new PageServer().start();
    guarded = await pageStage(false);
  });
  afterAll(async () => {
    await guarded.close();
    await server.stop();
  });

  it('should refuse a page on a private address without sending it a request', async () => {
    const url = server.fixed('/private', 200, 'text/plain', 'internal');
    const [result] = await guarded.get(PageStage).readPages(USER, [{ url }], new Map());
    expect(result).toMatchObject({ status: 'error', error: 'address not allowed', text: null });
    expect(server.requestsTo('/private')).toHaveLength(0);
  });
});
