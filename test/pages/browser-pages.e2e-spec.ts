import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { Test, type TestingModule } from '@nestjs/testing';
import { chromium } from 'playwright-core';
import pino from 'pino';
import { ClockModule } from '../../src/common/clock/clock';
import { LoggingModule } from '../../src/common/logging/logging.module';
import { BlockedDestinationError } from '../../src/common/outbound/network-guard';
import { OutboundHttpClient } from '../../src/common/outbound/outbound-http.client';
import { OutboundHttpModule } from '../../src/common/outbound/outbound-http.module';
import { AppConfigModule } from '../../src/config/config.module';
import { readConfig } from '../../src/config/config-slice';
import { PACKAGE_INFO } from '../../src/config/package-info';
import { serverConfig } from '../../src/config/server.config';
import { browserConfig } from '../../src/pages/browser/browser.config';
import { BROWSER_DESTINATION_CHECK } from '../../src/pages/browser/browser-page-fetcher';
import { PageStage } from '../../src/pages/page-stage.service';
import type { PageTarget } from '../../src/pages/page.types';
import { pagesConfig } from '../../src/pages/pages.config';
import { PagesModule } from '../../src/pages/pages.module';
import { closeNow } from '../support/loopback';
import { PageServer } from '../support/page-server';
import { waitFor } from '../support/wait';

const PUBLIC_URL = 'https://monitor.example.org';
const USER = 'browser-page-user';
/** A second loopback address, which the guard of these tests refuses. */
const REFUSED_HOST = '127.0.0.2';

/**
 * The page stage with the Chromium of this machine (found on PATH), its egress proxy asking the
 * guard with private networks allowed, except for REFUSED_HOST.
 */
async function browserStage(env: Record<string, string | undefined> = {}): Promise<TestingModule> {
  const slices = {
    server: serverConfig,
    pages: pagesConfig,
    browser: browserConfig,
  };
  const config = readConfig({ PUBLIC_URL, PATH: process.env.PATH, ...env }, slices);
  const module = await Test.createTestingModule({
    imports: [
      AppConfigModule.forRoot(slices, config),
      LoggingModule.forRoot(pino({ level: 'silent' })),
      ClockModule,
      OutboundHttpModule.forRoot({ allowPrivateNetworks: true, dnsServers: [], isGlobal: true }),
      PagesModule,
    ],
  })
    .overrideProvider(BROWSER_DESTINATION_CHECK)
    .useFactory({
      factory: (http: OutboundHttpClient) => (host: string) =>
        host === REFUSED_HOST
          ? Promise.reject(new BlockedDestinationError(host))
          : http.resolveUserHost(host),
      inject: [OutboundHttpClient],
    })
    .compile();
  return module.init();
}

/** Pids of the Chromium processes this test process started. */
function chromiumChildren(): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), 'chrom'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** `pids` and every process under them. */
function withDescendants(pids: number[]): number[] {
  const pairs = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const tree = new Set(pids);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of pairs) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

/**
 * The scheduling class (`ps`'s `cls`: `TS` for the default policy, `IDL` for the idle one) of
 * every thread of `pids` and of every process under them.
 */
function schedulingClasses(pids: number[]): string[] {
  return execFileSync('ps', ['-L', '-o', 'cls=', '-p', withDescendants(pids).join(',')], {
    encoding: 'utf8',
  })
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

describe('Pages that need a browser, in a real Chromium', () => {
  let server: PageServer;
  let refused: Server;
  let refusedRequests: string[];
  let refusedPort: number;
  let open: TestingModule;
  let stage: PageStage;

  beforeAll(async () => {
    server = await new PageServer().start();
    refusedRequests = [];
    refused = createServer((request, response) => {
      refusedRequests.push(request.url ?? '');
      response.end('secret');
    });
    await new Promise<void>((resolve) => refused.listen(0, REFUSED_HOST, resolve));
    refusedPort = (refused.address() as { port: number }).port;
    open = await browserStage();
    stage = open.get(PageStage);
  });
  afterAll(async () => {
    await open.close();
    await closeNow(refused);
    await server.stop();
  });

  const readOne = async (page: Omit<PageTarget, 'render'>) =>
    (await stage.readPages(USER, [{ ...page, render: 'browser' }], new Map()))[0];

  it('should read text a script draws, with the service User-Agent, and keep a screenshot', async () => {
    const url = server.fixed(
      '/drawn',
      200,
      'text/html',
      '<title>App</title><body><div id="app"></div><script>' +
        "document.getElementById('app').textContent = 'Drawn by JavaScript';</script></body>",
    );
    const result = await readOne({ url });
    expect(result).toMatchObject({
      status: 'new',
      render: 'browser',
      httpStatus: 200,
      title: 'App',
      text: 'Drawn by JavaScript',
      finalUrl: url,
    });
    expect(result.screenshot?.subarray(1, 4).toString()).toBe('PNG');
    expect(server.requestsTo('/drawn')[0].headers['user-agent']).toBe(
      `TaskMonitor/${PACKAGE_INFO.version} (+${PUBLIC_URL})`,
    );
  });

  it('should run the Chromium it starts, every process and thread, under the idle scheduling policy', async () => {
    const url = server.fixed('/idle', 200, 'text/html', '<p>Read when the cores are free</p>');
    expect(await readOne({ url })).toMatchObject({ status: 'new' });
    const classes = schedulingClasses(chromiumChildren());
    expect(classes.length).toBeGreaterThan(10);
    expect(new Set(classes)).toEqual(new Set(['IDL']));
  });

  it('should give a page no WebRTC, which would reach addresses past the egress proxy', async () => {
    const url = server.fixed(
      '/webrtc',
      200,
      'text/html',
      '<p id="rtc"></p><script>document.getElementById("rtc").textContent =' +
        ' "RTCPeerConnection is " + typeof RTCPeerConnection;</script>',
    );
    expect(await readOne({ url })).toMatchObject({ text: 'RTCPeerConnection is undefined' });
  });

  it('should refuse what a page asks permission for: a position, notifications', async () => {
    const url = server.fixed(
      '/asks',
      200,
      'text/html',
      '<p id="position"></p><p id="notifications"></p><script>' +
        'const say = (id, text) => { document.getElementById(id).textContent = text;' +
        ' if (document.querySelectorAll("p:empty").length === 0) document.body.append(' +
        ' Object.assign(document.createElement("div"), { id: "answered" })); };' +
        'navigator.geolocation.getCurrentPosition(() => say("position", "position given"),' +
        ' (error) => say("position", "position refused (" + error.code + ")"));' +
        'Notification.requestPermission().then((answer) => say("notifications",' +
        ' "notifications " + answer));</script>',
    );
    expect(await readOne({ url, wait_for: '#answered' })).toMatchObject({
      status: 'new',
      text: 'position refused (1)\nnotifications denied',
    });
  });

  it('should wait for wait_for, and say when it matched nothing', async () => {
    const url = server.fixed(
      '/late',
      200,
      'text/html',
      '<body><script>setTimeout(() => { const p = document.createElement("p");' +
        ' p.className = "ready"; p.textContent = "Late text"; document.body.append(p); }, 1500);' +
        '</script></body>',
    );
    expect(await readOne({ url, wait_for: 'p.ready' })).toMatchObject({ text: 'Late text' });
    const none = server.fixed('/none', 200, 'text/html', '<p>Here</p>');
    expect(await readOne({ url: none, wait_for: '#never' })).toMatchObject({
      status: 'error',
      error: 'wait_for matched nothing',
    });
  }, 60_000);

  it('should give every page a fresh context: a cookie set by one read is not sent by the next', async () => {
    const url = server.page('/cookie', (_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'seen=1; Path=/' })
        .end('<p>Cookie page</p>');
    });
    await readOne({ url });
    await readOne({ url });
    const requests = server.requestsTo('/cookie');
    expect(requests).toHaveLength(2);
    expect(requests[1].headers.cookie).toBeUndefined();
  });

  it("should send the page's headers to its own origin only", async () => {
    const other = `http://localhost:${server.port}/other.js`;
    server.fixed('/other.js', 200, 'text/javascript', '1;');
    server.fixed('/own.js', 200, 'text/javascript', '2;');
    const url = server.fixed(
      '/with-headers',
      200,
      'text/html',
      `<p>Headers</p><script src="/own.js"></script><script src="${other}"></script>`,
    );
    await readOne({ url, headers: { Authorization: 'Bearer secret' } });
    expect(server.requestsTo('/with-headers')[0].headers.authorization).toBe('Bearer secret');
    expect(server.requestsTo('/own.js')[0].headers.authorization).toBe('Bearer secret');
    expect(server.requestsTo('/other.js')[0].headers.authorization).toBeUndefined();

    server.fixed('/elsewhere', 200, 'text/html', '<p>Elsewhere</p>');
    const away = server.redirect('/away', `http://localhost:${server.port}/elsewhere`);
    expect(await readOne({ url: away, headers: { Authorization: 'Bearer secret' } })).toMatchObject(
      { text: 'Elsewhere' },
    );
    expect(server.requestsTo('/away')[0].headers.authorization).toBe('Bearer secret');
    expect(server.requestsTo('/elsewhere')[0].headers.authorization).toBeUndefined();

    // The browser asks a redirect's next hop afresh, with no added headers, even on the origin.
    server.fixed('/hop-2', 200, 'text/html', '<p>Second hop</p>');
    const hop = server.redirect('/hop-1', '/hop-2');
    expect(await readOne({ url: hop, headers: { Authorization: 'Bearer secret' } })).toMatchObject({
      text: 'Second hop',
    });
    expect(server.requestsTo('/hop-1')[0].headers.authorization).toBe('Bearer secret');
    expect(server.requestsTo('/hop-2')[0].headers.authorization).toBeUndefined();
  });

  it('should never let a refused subresource or a refused redirect reach its server', async () => {
    const refusedOrigin = `http://${REFUSED_HOST}:${refusedPort}`;
    const url = server.fixed(
      '/leaky',
      200,
      'text/html',
      `<p>Leaky</p><img src="${refusedOrigin}/image.png">` +
        `<script>fetch("${refusedOrigin}/fetch").catch(() => {});</script>`,
    );
    expect(await readOne({ url })).toMatchObject({ status: 'new', text: 'Leaky' });
    const redirect = server.redirect('/to-refused', `${refusedOrigin}/document`);
    expect(await readOne({ url: redirect })).toMatchObject({
      status: 'error',
      error: 'address not allowed',
    });
    expect(refusedRequests).toEqual([]);
  });

  it('should refuse a document the browser holds over 5 MB as too large', async () => {
    const url = server.fixed(
      '/huge',
      200,
      'text/html',
      '<p id="huge"></p><script>document.getElementById("huge").textContent = "x".repeat(5000001);</script>',
    );
    expect(await readOne({ url })).toMatchObject({ status: 'error', error: 'too large' });
  });

  it('should time out a page that never goes idle', async () => {
    const url = server.fixed(
      '/busy',
      200,
      'text/html',
      '<p>Busy</p><script>setInterval(() => fetch("/poll").catch(() => {}), 200);</script>',
    );
    server.fixed('/poll', 200, 'text/plain', 'ok');
    expect(await readOne({ url })).toMatchObject({ status: 'error', error: 'timed out' });
  }, 60_000);

  it('should fail only the page in flight when the browser dies, and start a new one for the next', async () => {
    let arrived = false;
    const url = server.page('/hanging', () => {
      arrived = true;
    });
    const held = readOne({ url });
    await waitFor(async () => arrived, { what: 'the page to be requested' });
    // Every process of the browser: a launcher script (Debian's headless shell has one) may stand
    // between this process and Chromium's own.
    for (const pid of withDescendants(chromiumChildren())) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // it ended with its parent
      }
    }
    expect(await held).toMatchObject({ status: 'error', error: 'browser failed' });
    const next = server.fixed('/after', 200, 'text/html', '<p>After the crash</p>');
    expect(await readOne({ url: next })).toMatchObject({ status: 'new', text: 'After the crash' });
  }, 60_000);

  it('should fail the page, not the check, when the egress proxy cannot listen where it is told', async () => {
    // 192.0.2.1 (TEST-NET-1) is no address of this machine.
    const unreachable = await browserStage({ BROWSER_PROXY_HOST: '192.0.2.1' });
    try {
      const url = server.fixed('/no-way-out', 200, 'text/html', '<p>No way out</p>');
      const [result] = await unreachable
        .get(PageStage)
        .readPages(USER, [{ url, render: 'browser' }], new Map());
      expect(result).toMatchObject({ status: 'error', error: 'browser failed' });
      expect(server.requestsTo('/no-way-out')).toEqual([]);
    } finally {
      await unreachable.close();
    }
  });

  it('should read a stored browser page as the error no browser once there is none', async () => {
    const none = await browserStage({ CHROMIUM_PATH: '/nonexistent/chromium' });
    try {
      const url = server.fixed('/unread', 200, 'text/html', '<p>Never read</p>');
      const [result] = await none
        .get(PageStage)
        .readPages(USER, [{ url, render: 'browser' }], new Map());
      expect(result).toMatchObject({ status: 'error', render: 'browser', error: 'no browser' });
      expect(server.requestsTo('/unread')).toEqual([]);
    } finally {
      await none.close();
    }
  });
});

/** A browser service of its own, started without the service's proxy, and its websocket. */
interface BrowserService {
  endpoint: string;
  close(): Promise<void>;
}

/** Playwright's own protocol, as `npx playwright run-server --path /playwright` serves it. */
async function playwrightService(): Promise<BrowserService> {
  const service = await chromium.launchServer({
    executablePath: '/usr/bin/chromium',
    wsPath: '/playwright',
  });
  return { endpoint: service.wsEndpoint(), close: () => service.close() };
}

/** A Chromium's own DevTools websocket, as browser containers serve it. */
async function devToolsService(): Promise<BrowserService> {
  const profile = mkdtempSync(join(tmpdir(), 'devtools-browser-'));
  // A process group of its own: closing ends every process of this Chromium, not only the first.
  const browser = spawn(
    '/usr/bin/chromium',
    [
      '--headless',
      '--no-sandbox',
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { detached: true },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let said = '';
    browser.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const listening = /DevTools listening on (ws:\/\/\S+)/.exec(said);
      if (listening) resolve(listening[1]);
    });
    browser.once('exit', () => reject(new Error(`Chromium ended before listening: ${said}`)));
  });
  return {
    endpoint,
    close: async () => {
      const ended = new Promise((resolve) => browser.once('exit', resolve));
      process.kill(-browser.pid!, 'SIGKILL');
      await ended;
      // The group's other processes may still be ending while their files go.
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

describe.each([
  ['Playwright', playwrightService],
  ['DevTools', devToolsService],
])('Pages that need a browser, in a browser service (BROWSER_WS_ENDPOINT, %s)', (_, start) => {
  let server: PageServer;
  let refused: Server;
  let refusedRequests: string[];
  let service: BrowserService;
  let open: TestingModule;

  beforeAll(async () => {
    server = await new PageServer().start();
    refusedRequests = [];
    refused = createServer((request, response) => {
      refusedRequests.push(request.url ?? '');
      response.end('secret');
    });
    await new Promise<void>((resolve) => refused.listen(0, REFUSED_HOST, resolve));
    // Launched without the service's proxy: each page's context names its listener.
    service = await start();
    open = await browserStage({ BROWSER_WS_ENDPOINT: service.endpoint });
  });
  afterAll(async () => {
    await open.close();
    await service.close();
    await closeNow(refused);
    await server.stop();
  });

  it('should read a drawn page through the service, every request through the egress proxy', async () => {
    const { port } = refused.address() as { port: number };
    const url = server.fixed(
      '/remote',
      200,
      'text/html',
      '<p id="app"></p><script>document.getElementById("app").textContent = "Drawn remotely";' +
        `fetch("http://${REFUSED_HOST}:${port}/leak").catch(() => {});</script>`,
    );
    const [result] = await open
      .get(PageStage)
      .readPages(USER, [{ url, render: 'browser' }], new Map());
    expect(result).toMatchObject({ status: 'new', render: 'browser', text: 'Drawn remotely' });
    expect(refusedRequests).toEqual([]);
  });
});
