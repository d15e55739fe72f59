import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (package `chromium`), or another build named by `CHROMIUM_PATH`. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = join(__dirname, '..', '..', 'test-results', 'console');
const WIDTHS = [1280, 375] as const;
const NARROW = 375;

/**
 * The elements whose box ends beyond the right edge of the page, described: on a narrow
 * screen nothing may be cut off or need sideways scrolling, tables included.
 */
const ELEMENTS_BEYOND_RIGHT_EDGE = `[...document.body.querySelectorAll('*')]
  .filter((element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.right > document.documentElement.clientWidth + 0.5;
  })
  .map((element) => element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') +
    (element.className ? '.' + String(element.className).split(' ').join('.') : '') +
    ' "' + (element.textContent ?? '').trim().slice(0, 40) + '"')`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

let axeSource: Promise<string> | null = null;

/**
 * One browser tab on the console that records every console error and page error. Tests read
 * them with `takeErrors`, naming the ones they provoke: Chromium logs every 4xx answer of a
 * fetch as an error (a 401 once a key is revoked, the 400 of a refused schema).
 */
export class ConsoleTab {
  private readonly errors: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly baseUrl: string,
  ) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.errors.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.errors.push(`page: ${error.message}`));
  }

  static async open(browser: Browser, baseUrl: string): Promise<ConsoleTab> {
    const context = await browser.newContext({
      viewport: { width: WIDTHS[0], height: 900 },
      locale: 'en-US',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    return new ConsoleTab(context, await context.newPage(), baseUrl);
  }

  async goto(hash = ''): Promise<void> {
    await this.page.goto(`${this.baseUrl}/console${hash}`);
  }

  async signIn(apiKey: string): Promise<void> {
    await this.goto();
    await this.page.getByLabel('API key').fill(apiKey);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    await this.page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  /** The errors recorded since the last call, except those matching `expected`. */
  takeErrors(expected: RegExp[] = []): string[] {
    return this.errors.splice(0).filter((error) => !expected.some((re) => re.test(error)));
  }

  /**
   * Checks the page on screen at both widths: no serious or critical axe-core violation, no
   * sideways scrolling of the page itself (on a wide screen a table too wide scrolls inside its
   * own box), at 375 px no element beyond the right edge, and a screenshot of each width in
   * test-results/console/.
   */
  async audit(name: string): Promise<void> {
    await mkdir(SCREENSHOTS, { recursive: true });
    for (const width of WIDTHS) {
      await this.page.setViewportSize({ width, height: 900 });
      await this.page.evaluate('new Promise((resolve) => requestAnimationFrame(resolve))');
      expect({ page: name, width, violations: await this.axeViolations() }).toEqual({
        page: name,
        width,
        violations: [],
      });
      const overflow = await this.page.evaluate<number>(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect({ page: name, width, overflow }).toEqual({ page: name, width, overflow: 0 });
      if (width === NARROW)
        expect({
          page: name,
          width,
          beyond: await this.page.evaluate(ELEMENTS_BEYOND_RIGHT_EDGE),
        }).toEqual({ page: name, width, beyond: [] });
      await this.page.screenshot({
        path: join(SCREENSHOTS, `${name}-${width}.png`),
        fullPage: true,
      });
    }
    await this.page.setViewportSize({ width: WIDTHS[0], height: 900 });
  }

  async close(): Promise<void> {
    await this.context.close();
  }

  /**
   * axe-core is evaluated through the DevTools protocol, which the page's CSP does not govern
   * (an injected `<script>` would be refused by `script-src 'self'`, as it should be).
   */
  private async axeViolations(): Promise<string[]> {
    axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    await this.page.evaluate(await axeSource);
    const violations = await this.page.evaluate<AxeViolation[]>(
      'axe.run().then((result) => result.violations)',
    );
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes
            .map((node) => JSON.stringify(node.target))
            .join(', ')})`,
      );
  }
}
