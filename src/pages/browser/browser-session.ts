import { chromium, type Browser } from 'playwright-core';
import type { BrowserConfig } from './browser.config';
import type { EgressListener, EgressProxy } from './egress-proxy';
import { IdleLauncher } from './idle-launcher';

/** Starting Chromium or connecting to a browser service takes at most this long. */
export const BROWSER_START_TIMEOUT_MS = 15_000;

/**
 * `BROWSER_WS_ENDPOINT` speaks Playwright's own protocol when its path ends in `/playwright`
 * (`npx playwright run-server --path /playwright`); any other websocket is a DevTools one.
 */
function speaksPlaywright(endpoint: string): boolean {
  return new URL(endpoint).pathname.replace(/\/+$/, '').endsWith('/playwright');
}

/** What `open` gives, opened on the first call and kept; a failed opening is tried again. */
class OpenedOnce<T> {
  private opened: Promise<T> | null = null;

  constructor(private readonly open: () => Promise<T>) {}

  get(): Promise<T> {
    const opened = (this.opened ??= this.open());
    return opened.catch((error: unknown) => {
      if (this.opened === opened) this.opened = null;
      throw error;
    });
  }

  /** Closes what was opened, if anything was. */
  async close(close: (value: T) => Promise<void>): Promise<void> {
    const opened = this.opened;
    this.opened = null;
    await opened?.then(close, () => undefined);
  }
}

/**
 * The browser that reads browser pages (docs/pages.md, "Pages that need a browser"): the
 * browser service at `BROWSER_WS_ENDPOINT`, else a headless Chromium started from
 * `CHROMIUM_PATH`, started or connected on first use and again after it crashed or
 * disconnected: its death fails the pages it held, and the next page gets a new one. A
 * Chromium the service starts sends everything through the egress proxy (loopback included);
 * every page's context names its own listener of that proxy as well, which is what a browser
 * service started elsewhere obeys. A started Chromium runs under the idle scheduling policy when
 * `chrt` is there (IdleLauncher).
 */
export class BrowserSession {
  private browser: Promise<Browser> | null = null;
  /** The listener a started Chromium is launched with, opened with the first start. */
  private readonly launchListener: OpenedOnce<EgressListener>;
  /**
   * What a started Chromium is started through, written at the first start; none without `chrt`
   * or without a Chromium to start.
   */
  private readonly launcher: OpenedOnce<IdleLauncher> | null;

  constructor(
    private readonly config: Pick<BrowserConfig, 'wsEndpoint' | 'chromiumPath' | 'chrtPath'>,
    proxy: EgressProxy,
  ) {
    this.launchListener = new OpenedOnce(() => proxy.open());
    const { chrtPath, chromiumPath } = config;
    this.launcher =
      chrtPath === null || chromiumPath === null
        ? null
        : new OpenedOnce(() => IdleLauncher.write(chrtPath, chromiumPath));
  }

  /** The running browser; a new one when there was none or it died. */
  current(): Promise<Browser> {
    if (this.browser === null) {
      const started = this.start();
      this.browser = started;
      started.then(
        (browser) => browser.once('disconnected', () => this.forget(started)),
        () => this.forget(started),
      );
    }
    return this.browser;
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    await browser?.then((open) => open.close()).catch(() => undefined);
    await this.launchListener.close((listener) => listener.close());
    await this.launcher?.close((launcher) => launcher.remove());
  }

  private forget(browser: Promise<Browser>): void {
    if (this.browser === browser) this.browser = null;
  }

  private async start(): Promise<Browser> {
    const { wsEndpoint, chromiumPath } = this.config;
    const timeout = BROWSER_START_TIMEOUT_MS;
    if (wsEndpoint !== null) {
      return speaksPlaywright(wsEndpoint)
        ? chromium.connect(wsEndpoint, { timeout })
        : chromium.connectOverCDP(wsEndpoint, { timeout });
    }
    if (chromiumPath === null) throw new Error('no browser is configured');
    const [listener, launcher] = await Promise.all([
      this.launchListener.get(),
      this.launcher?.get(),
    ]);
    return chromium.launch({
      executablePath: launcher?.path ?? chromiumPath,
      headless: true,
      timeout,
      // Playwright adds `--proxy-bypass-list=<-loopback>`: loopback goes through the proxy too.
      proxy: { server: listener.server },
      // WebRTC sends UDP past any proxy; only what the proxy carries may leave.
      args: ['--force-webrtc-ip-handling-policy=disable_non_proxied_udp'],
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  }
}
