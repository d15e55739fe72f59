/**
 * Pages that need a browser (docs/pages.md, "Pages that need a browser"), against the built
 * service and the Chromium it starts itself (`CHROMIUM_PATH`, else found on `PATH`):
 *  A. One instance, BROWSER_PAGES_AT_ONCE=2, BENCH_BROWSER_PAGES (default 300) due tasks, each
 *     watching one page that JavaScript draws (a small HTML shell whose script builds some 100 kB
 *     of text in the DOM), all new: browser pages/s, against a bare playwright-core script in the
 *     same run doing what the service does for each page (a fresh context, `load`, then 500 ms
 *     without requests, the DOM serialised, a viewport screenshot), two pages at a time.
 *  B. One instance, BENCH_BROWSER_RSS_PAGES (default 1,000) browser pages, 100 due at a time: the
 *     resident memory of the service and its Chromium (VmRSS of the service's process and of every
 *     process under it) once the first 100 ended and once all of them ended.
 *  C. Two instances, BENCH_PAGES_DUE (default 2,000) tasks watching 100 kB HTML pages read over
 *     plain HTTP, unchanged and without validators (each body fetched again): their checks/s alone,
 *     while BENCH_BROWSER_BESIDE (default 200) browser page checks run on the same instances (and
 *     how many of those ended before the last plain check, having loaded beside them), alone
 *     again once those ended (the round-to-round noise of the machine), and, as the floor, while a
 *     bare playwright-core script reads the same drawn pages the same way in a Chromium of its own
 *     under the same idle policy (no browser page checks).
 *     The median of BENCH_PAGES_ROUNDS (default 3) runs each, taking turns.
 * BENCH_BROWSER_ONLY=speed|rss|beside runs one of them (and leaves BENCHMARKS.md alone).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromium, type Browser } from 'playwright-core';
import type { Pool } from 'pg';
import { GeminiStandIn, checkReply } from '../test/support/gemini-stand-in';
import { procStatField } from '../src/common/proc/proc-stat';
import { readConfig } from '../src/config/config-slice';
import { browserConfig } from '../src/pages/browser/browser.config';
import { IdleLauncher } from '../src/pages/browser/idle-launcher';
import { CHECK_QUEUE } from '../src/scheduler/job-queue.service';
import {
  cataloguePage,
  machineLine,
  seedDueTasks,
  sleep,
  startServer,
  writeBenchmarkSection,
  type Outcome,
} from './bench-support';
import {
  BenchPageServer,
  PAGES_DUE,
  ROUNDS,
  catalogueRender,
  measuredCpu,
  startInstances,
  type PageRender,
} from './page-bench-support';

const BROWSER_PAGES = Number(process.env.BENCH_BROWSER_PAGES ?? 300);
const RSS_PAGES = Number(process.env.BENCH_BROWSER_RSS_PAGES ?? 1000);
const BESIDE = Number(process.env.BENCH_BROWSER_BESIDE ?? 200);
const PAGES_AT_ONCE = 2;
const PAGE_BYTES = 100_000;
/** Browser pages due at once in the memory scenario, and the first memory sample's count. */
const RSS_WAVE = 100;
const RSS_LIMIT_KB = 1.2 * 1024 * 1024;
const SOURCES = [{ uri: 'https://www.shop.example/products/42', title: 'Example product' }];
const BROWSER_FIELDS = { pageFields: { render: 'browser' } };

/**
 * A page that JavaScript draws: a shell of a few hundred bytes whose script builds some
 * PAGE_BYTES of catalogue items in the DOM.
 */
const drawnRender: PageRender = (n, edition) => ({
  contentType: 'text/html; charset=utf-8',
  body: Buffer.from(
    `<!doctype html><html><head><title>Page ${n}</title></head><body><h1>Page ${n}, edition ${edition}</h1>
<div id="items"></div><script>
const items = document.getElementById('items');
for (let item = 0, size = 0; size < ${PAGE_BYTES}; item++) {
  const div = document.createElement('div');
  div.className = 'item';
  div.innerHTML = '<h2>Item ' + item + '</h2><p>Some <b>bold</b> text and <a href="/i/' + item +
    '">a link</a>, price ' + item + '.99 EUR</p><ul><li>size S</li><li>size M</li></ul>';
  items.appendChild(div);
  size += div.outerHTML.length;
}
</script></body></html>`,
  ),
});

/** The Chromium the service would start, found as the service finds it. */
function chromiumPath(): string {
  const path = readConfig(process.env, { browser: browserConfig }).browser.chromiumPath;
  if (path === null) throw new Error('no Chromium: set CHROMIUM_PATH or put chromium on PATH');
  return path;
}

/**
 * Reads the pages `nextUrl` hands out (until it hands out null) as the service reads a browser
 * page, PAGES_AT_ONCE at a time, each in a fresh context: the bare script's loop.
 */
async function readBare(browser: Browser, nextUrl: () => string | null): Promise<number> {
  let read = 0;
  const reader = async () => {
    for (let url = nextUrl(); url !== null; url = nextUrl()) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const tab = await context.newPage();
      await tab.goto(url, { waitUntil: 'load' });
      await tab.waitForLoadState('networkidle');
      await tab.content();
      await tab.screenshot({ type: 'png' });
      await context.close();
      read += 1;
    }
  };
  await Promise.all(Array.from({ length: PAGES_AT_ONCE }, reader));
  return read;
}

/** Memory of the bench's Chromium processes (the bare script's browser), KiB, as `treeMemoryKb`. */
function bareChromiumKb(): { rss: number; pss: number } {
  const chromiumProcesses = processTree(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('chrom');
    } catch {
      return false;
    }
  });
  return memoryKb(chromiumProcesses);
}

/**
 * `urls` read as the service reads a browser page, PAGES_AT_ONCE at a time, each in a fresh
 * context, by playwright-core alone: pages/s once Chromium is running, and the CPU per page of
 * the bench's process and what runs under it, but the service `idleService` left idle meanwhile.
 */
async function barePlaywright(
  urls: string[],
  idleService: number,
): Promise<{ pagesPerSecond: number; cpuMs: number; maxKb: { rss: number; pss: number } }> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true });
  try {
    let next = 0;
    // The bench's process and what runs under it, but the service left idle meanwhile: the
    // script, its Chromium, and the page server (a small part).
    const cpu = () => treeCpuSeconds(process.pid) - treeCpuSeconds(idleService);
    let maxKb = { rss: 0, pss: 0 };
    const sampler = setInterval(() => {
      const kb = bareChromiumKb();
      if (kb.rss > maxKb.rss) maxKb = kb;
    }, 1000);
    const started = Date.now();
    const cpuBefore = cpu();
    await readBare(browser, () => (next < urls.length ? urls[next++] : null)).finally(() =>
      clearInterval(sampler),
    );
    const cpuMs = ((cpu() - cpuBefore) * 1000) / urls.length;
    return { pagesPerSecond: urls.length / ((Date.now() - started) / 1000), cpuMs, maxKb };
  } finally {
    await browser.close();
  }
}

/** Every process under `root`, `root` included, from /proc. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const parent = Number(procStatField(readFileSync(`/proc/${entry}/stat`, 'utf8'), 4));
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index++) tree.push(...(children.get(tree[index]) ?? []));
  return tree;
}

/**
 * Memory of `root` and every process under it, KiB: VmRSS summed (shared pages counted in each
 * process) and Pss summed (shared pages divided among the processes sharing them).
 */
function treeMemoryKb(root: number): { rss: number; pss: number } {
  return memoryKb(processTree(root));
}

/** VmRSS and Pss summed over `pids`, KiB (a process that ended counts 0). */
function memoryKb(pids: number[]): { rss: number; pss: number } {
  const field = (file: string, name: string) => {
    try {
      return Number(new RegExp(`${name}:\\s+(\\d+)`).exec(readFileSync(file, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  return pids.reduce(
    (sum, pid) => ({
      rss: sum.rss + field(`/proc/${pid}/status`, 'VmRSS'),
      pss: sum.pss + field(`/proc/${pid}/smaps_rollup`, 'Pss'),
    }),
    { rss: 0, pss: 0 },
  );
}

/**
 * CPU seconds of `root` and every process under it, with those of the processes under them that
 * ended since (take differences over a run only).
 */
function treeCpuSeconds(root: number): number {
  return processTree(root).reduce((sum, pid) => {
    try {
      // utime, stime, and cutime and cstime: those of its children that ended (a page's renderer).
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ticks = [14, 15, 16, 17].map((field) => Number(procStatField(stat, field)));
      return sum + ticks.reduce((total, each) => total + each, 0) / 100;
    } catch {
      return sum;
    }
  }, 0);
}

/** Page statuses and renders the checks made since `since` read, `3 changed/browser`. */
async function pageStatuses(pool: Pool, since: Date): Promise<string> {
  const { rows } = await pool.query<{ status: string; render: string; count: number }>(
    `SELECT r->>'status' AS status, r->>'render' AS render, count(*)::int AS count
     FROM executions, jsonb_array_elements(page_results) r WHERE created_at >= $1
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [since.toISOString()],
  );
  return rows.map((row) => `${row.count} ${row.status}/${row.render}`).join(', ') || '–';
}

/** Starts Chromium in the instance: one browser page checked before anything is measured. */
async function warmUp(pool: Pool, boss: Parameters<typeof seedDueTasks>[1], url: string) {
  const seeded = await seedDueTasks(pool, boss, 1, 1, 0, { ...BROWSER_FIELDS, pageUrl: () => url });
  await renderOutcome(pool, seeded.dueAt, 'browser', 1, 60_000);
}

interface Speed {
  service: Outcome;
  statuses: string;
  serviceCpuMs: number;
  bare: Awaited<ReturnType<typeof barePlaywright>>;
}

/** Scenario A: the service's browser pages/s and the bare script's, on the same pages. */
async function speed(
  adminUrl: string,
  gemini: GeminiStandIn,
  pages: BenchPageServer,
): Promise<Speed> {
  const run = await startInstances(adminUrl, 'browser_speed', gemini, 1);
  try {
    await warmUp(run.pool, run.boss, pages.url(BROWSER_PAGES));
    const fields = { ...BROWSER_FIELDS, pageUrl: (n: number) => pages.url(n) };
    const seeded = await seedDueTasks(
      run.pool,
      run.boss,
      BROWSER_PAGES,
      BROWSER_PAGES,
      1500,
      fields,
    );
    const pid = run.services[0].child.pid!;
    const cpuBefore = treeCpuSeconds(pid);
    const service = await renderOutcome(run.pool, seeded.dueAt, 'browser', seeded.due);
    const serviceCpuMs = ((treeCpuSeconds(pid) - cpuBefore) * 1000) / seeded.due;
    const statuses = await pageStatuses(run.pool, seeded.dueAt);
    const urls = Array.from({ length: BROWSER_PAGES }, (_, n) => pages.url(n));
    return { service, statuses, serviceCpuMs, bare: await barePlaywright(urls, pid) };
  } finally {
    await run.close();
  }
}

/**
 * Scenario B: RSS_PAGES browser pages in waves of RSS_WAVE (a tenth of them in a shorter run),
 * each due once the last ended, so that no page waits past its turn: the service's and its
 * Chromium's memory once the first wave ended and once the last ended, and the most sampled
 * every second meanwhile.
 */
async function rss(adminUrl: string, gemini: GeminiStandIn, pages: BenchPageServer) {
  const run = await startInstances(adminUrl, 'browser_rss', gemini, 1);
  try {
    const pid = run.services[0].child.pid!;
    const wave = Math.min(RSS_WAVE, Math.ceil(RSS_PAGES / 10));
    const since = new Date();
    let maxKb = 0;
    const sampler = setInterval(() => {
      maxKb = Math.max(maxKb, treeMemoryKb(pid).rss);
    }, 1000);
    let firstKb: { rss: number; pss: number } | undefined;
    const waves: Outcome[] = [];
    try {
      for (let read = 0; read < RSS_PAGES; read += wave) {
        const size = Math.min(wave, RSS_PAGES - read);
        const fields = { ...BROWSER_FIELDS, pageUrl: (n: number) => pages.url(read + n) };
        const seeded = await seedDueTasks(run.pool, run.boss, size, size, 1500, fields);
        waves.push(await renderOutcome(run.pool, seeded.dueAt, 'browser', seeded.due));
        firstKb ??= treeMemoryKb(pid);
      }
    } finally {
      clearInterval(sampler);
    }
    const lastKb = treeMemoryKb(pid);
    const seconds = waves.reduce((sum, each) => sum + each.seconds, 0);
    const missed = waves.reduce((sum, each) => sum + each.missed, 0);
    const statuses = await pageStatuses(run.pool, since);
    return {
      wave,
      firstKb: firstKb!,
      lastKb,
      maxKb: Math.max(maxKb, lastKb.rss),
      pagesPerSecond: RSS_PAGES / seconds,
      missed,
      statuses,
    };
  } finally {
    await run.close();
  }
}

/**
 * Checks of tasks whose page is read with `render`, made since `dueAt`, once `due` of them ended
 * (a failed check ends too: a page read past its CPU budget fails it as `too complex`); `missed`
 * counts the tasks without a successful one.
 */
async function renderOutcome(
  pool: Pool,
  dueAt: Date,
  render: 'http' | 'browser',
  due: number,
  timeoutMs = 600_000,
): Promise<Outcome & { last: number }> {
  const since = dueAt.toISOString();
  const query = `SELECT count(*)::int AS total, count(DISTINCT e.task_id)::int AS done,
       count(DISTINCT e.task_id) FILTER (WHERE e.status = 'success')::int AS succeeded,
       max(e.completed_at) AS last
     FROM executions e JOIN tasks t ON t.id = e.task_id
     WHERE e.completed_at IS NOT NULL AND e.created_at >= $1
       AND coalesce(t.pages->0->>'render', 'http') = $2`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query<{
      total: number;
      done: number;
      succeeded: number;
      last: Date;
    }>(query, [since, render]);
    const { total, done, succeeded, last } = rows[0];
    if (done >= due || Date.now() > deadline) {
      const seconds = (new Date(last).getTime() - dueAt.getTime()) / 1000;
      return {
        seconds,
        checksPerSecond: done / seconds,
        duplicates: total - done,
        missed: due - succeeded,
        p50Ms: NaN,
        p99Ms: NaN,
        last: new Date(last).getTime(),
      };
    }
    await sleep(200);
  }
}

/** How many browser page checks made since `dueAt` ended before `before` (epoch ms). */
async function browserChecksEnded(pool: Pool, dueAt: Date, before: number): Promise<number> {
  const { rows } = await pool.query<{ ended: number }>(
    `SELECT count(*)::int AS ended FROM executions e JOIN tasks t ON t.id = e.task_id
     WHERE e.created_at >= $1 AND e.completed_at < $2 AND t.pages->0->>'render' = 'browser'`,
    [dueAt.toISOString(), new Date(before).toISOString()],
  );
  return rows[0].ended;
}

/** Makes the next check of every task read with one of `renders` due `leadMs` from now. */
async function makeDue(pool: Pool, renders: string[], leadMs: number): Promise<Date> {
  const dueAt = new Date(Date.now() + leadMs);
  await pool.query(
    `UPDATE pgboss.job j SET start_after = $1 FROM tasks t
     WHERE j.name = $2 AND j.state = 'created' AND j.data->>'taskId' = t.id::text
       AND coalesce(t.pages->0->>'render', 'http') = ANY($3)`,
    [dueAt.toISOString(), CHECK_QUEUE, renders],
  );
  await pool.query(
    `UPDATE tasks SET next_run = $1 WHERE state = 'active' AND coalesce(pages->0->>'render', 'http') = ANY($2)`,
    [dueAt.toISOString(), renders],
  );
  return dueAt;
}

/** Plain page checks of one round, and the CPU the instances' Node processes spent per check. */
interface Measured {
  outcome: Outcome & { last: number };
  cpuMs: { instances: number };
}

interface Beside {
  alone: Measured;
  beside: Measured;
  browser: Outcome;
  /** The browser page checks that ended before the last plain check of the round: loaded beside. */
  endedBeside: number;
  /** The plain checks alone again, once the browser pages had ended. */
  aloneAgain: Measured;
  /** The plain checks beside a bare script's Chromium, and the pages that script read meanwhile. */
  besideBare: Measured & { pagesRead: number };
}

/**
 * `round` (plain checks) run beside a bare script reading the drawn pages in a Chromium started
 * under the idle policy as the service starts its own (`IdleLauncher`), until the round ends.
 */
async function besideBareChromium(
  round: () => Promise<Measured>,
  drawn: BenchPageServer,
): Promise<Measured & { pagesRead: number }> {
  const { chrtPath } = readConfig(process.env, { browser: browserConfig }).browser;
  if (chrtPath === null) throw new Error('no chrt on PATH: the bare Chromium could not run idle');
  const launcher = await IdleLauncher.write(chrtPath, chromiumPath());
  const browser = await chromium.launch({ executablePath: launcher.path, headless: true });
  try {
    let next = 0;
    let ended = false;
    const reading = readBare(browser, () => (ended ? null : drawn.url(next++ % BESIDE)));
    // A failed read ends the run once the round is measured, not as an unhandled rejection.
    reading.catch(() => undefined);
    const measured = await round().finally(() => (ended = true));
    return { ...measured, pagesRead: await reading };
  } finally {
    await browser.close();
    await launcher.remove();
  }
}

/**
 * Scenario C, one run: two instances, PAGES_DUE plain page tasks and BESIDE browser page tasks
 * (their pages on the plain pages' host, 127.0.0.1, so that they would take that host's share
 * of an instance's page slots if they waited for the browser holding one), all checked once
 * (every page new, Chromium started in the instances), then the plain ones due again alone, then
 * all of them due again together, then the plain ones alone again once the browser pages ended,
 * then the plain ones again beside the bare script's Chromium: the plain checks/s of the four
 * rounds.
 */
async function beside(
  adminUrl: string,
  gemini: GeminiStandIn,
  plain: BenchPageServer,
  drawn: BenchPageServer,
): Promise<Beside> {
  const run = await startInstances(adminUrl, 'browser_beside', gemini, 2);
  try {
    const first = await seedDueTasks(run.pool, run.boss, PAGES_DUE, PAGES_DUE, 1500, {
      pageUrl: (n) => plain.url(n),
    });
    const browserFirst = await seedDueTasks(run.pool, run.boss, BESIDE, BESIDE, 0, {
      ...BROWSER_FIELDS,
      pageUrl: (n) => drawn.url(n),
    });
    await renderOutcome(run.pool, first.dueAt, 'http', PAGES_DUE);
    await renderOutcome(run.pool, browserFirst.dueAt, 'browser', BESIDE);
    /** The plain checks of the round due at `due`, and the instances' CPU for them. */
    const plainChecks = (due: Date) =>
      measuredCpu(adminUrl, run.services, PAGES_DUE, async () => ({
        outcome: await renderOutcome(run.pool, due, 'http', PAGES_DUE),
      }));
    const alone = await plainChecks(await makeDue(run.pool, ['http'], 1500));
    const togetherDue = await makeDue(run.pool, ['http', 'browser'], 1500);
    const together = await plainChecks(togetherDue);
    const browser = await renderOutcome(run.pool, togetherDue, 'browser', BESIDE);
    const aloneAgain = await plainChecks(await makeDue(run.pool, ['http'], 1500));
    const bareDue = await makeDue(run.pool, ['http'], 1500);
    const besideBare = await besideBareChromium(() => plainChecks(bareDue), drawn);
    return {
      alone,
      beside: together,
      browser,
      endedBeside: await browserChecksEnded(run.pool, togetherDue, together.outcome.last),
      aloneAgain,
      besideBare,
    };
  } finally {
    await run.close();
  }
}

function medianBy<T>(runs: T[], key: (run: T) => number): T {
  return [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)];
}

const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

async function main(): Promise<void> {
  const load = loadavg()[0].toFixed(2);
  const only = process.env.BENCH_BROWSER_ONLY;
  // Every instance the page benchmarks start inherits the bench's environment.
  process.env.BROWSER_PAGES_AT_ONCE = String(PAGES_AT_ONCE);
  const server = await startServer();
  const gemini = await new GeminiStandIn().start();
  gemini.recordRequests = false;
  gemini.respondWith(checkReply({ sources: SOURCES }));
  const drawn = await new BenchPageServer(drawnRender).start();
  const plain = await new BenchPageServer(catalogueRender(cataloguePage(PAGE_BYTES, ''))).start();
  try {
    const lines: string[] = [];
    if (!only || only === 'speed') {
      const result = await speed(server.adminUrl, gemini, drawn);
      const ratio = result.service.checksPerSecond / result.bare.pagesPerSecond;
      lines.push(
        `**Browser pages/s.** ${BROWSER_PAGES} due tasks, each watching one page drawn by JavaScript (new, so each check also calls the model stand-in), one instance, BROWSER_PAGES_AT_ONCE=${PAGES_AT_ONCE}, Chromium already started: ${result.service.checksPerSecond.toFixed(2)} pages/s (${result.service.seconds.toFixed(1)} s, ${result.service.missed} missed, ${result.service.duplicates} duplicates; pages read: ${result.statuses}; ${result.serviceCpuMs.toFixed(0)} CPU ms per page in the service and its Chromium). A bare playwright-core script on the same pages (Chromium already started, ${PAGES_AT_ONCE} at a time, a fresh context each, \`load\` then 500 ms without requests, the DOM serialised, a viewport screenshot): ${result.bare.pagesPerSecond.toFixed(2)} pages/s (${result.bare.cpuMs.toFixed(0)} CPU ms per page in the script and its Chromium). The service: ${ratio.toFixed(2)}x the bare script (target at least 0.75x: ${ratio >= 0.75 ? 'met' : 'not met'}). The bare script's Chromium alone, sampled every second: at most ${mib(result.bare.maxKb.rss)} of VmRSS summed over its processes (Pss ${mib(result.bare.maxKb.pss)}).`,
      );
    }
    if (!only || only === 'rss') {
      const result = await rss(server.adminUrl, gemini, drawn);
      const growth = result.lastKb.rss / result.firstKb.rss - 1;
      const under = result.maxKb < RSS_LIMIT_KB;
      lines.push(
        `**Memory.** ${RSS_PAGES} browser pages on one instance, ${result.wave} due at a time, each wave once the last ended (BROWSER_PAGES_AT_ONCE=${PAGES_AT_ONCE}; ${result.pagesPerSecond.toFixed(2)} pages/s over the waves, ${result.missed} missed; pages read: ${result.statuses}): the service and its Chromium (VmRSS summed over the service's process and every process under it, shared pages counted in each) ${mib(result.firstKb.rss)} once the first ${result.wave} pages ended and ${mib(result.lastKb.rss)} once all ${RSS_PAGES} ended: ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} % (within 10 %: ${Math.abs(growth) <= 0.1 ? 'yes' : 'no'}); at most ${mib(result.maxKb)}, sampled every second while pages loaded (under 1.2 GB: ${under ? 'yes' : 'no'}). Pss summed instead (shared pages divided among the processes sharing them): ${mib(result.firstKb.pss)} and ${mib(result.lastKb.pss)}.`,
      );
    }
    if (!only || only === 'beside') {
      const runs: Beside[] = [];
      for (let round = 0; round < ROUNDS; round++)
        runs.push(await beside(server.adminUrl, gemini, plain, drawn));
      const alone = medianBy(runs, (run) => run.alone.outcome.checksPerSecond).alone;
      const together = medianBy(runs, (run) => run.beside.outcome.checksPerSecond);
      const ratio = together.beside.outcome.checksPerSecond / alone.outcome.checksPerSecond;
      const bare = medianBy(runs, (run) => run.besideBare.outcome.checksPerSecond).besideBare;
      const bareRatio = bare.outcome.checksPerSecond / alone.outcome.checksPerSecond;
      const again = medianBy(runs, (run) => run.aloneAgain.outcome.checksPerSecond).aloneAgain;
      const againRatio = again.outcome.checksPerSecond / alone.outcome.checksPerSecond;
      lines.push(
        `**Plain pages beside browser pages.** Two instances, ${PAGES_DUE} tasks watching ${PAGE_BYTES / 1000} kB HTML pages read over HTTP, due again unchanged without validators (each body fetched again): ${alone.outcome.checksPerSecond.toFixed(0)} checks/s alone (${alone.cpuMs.instances.toFixed(2)} CPU ms per check in the instances' Node processes), ${together.beside.outcome.checksPerSecond.toFixed(0)} checks/s while ${BESIDE} browser page checks (on the same host, 127.0.0.1) were due with them on the same instances (${together.beside.cpuMs.instances.toFixed(2)} CPU ms; the browser pages ${together.browser.checksPerSecond.toFixed(2)} pages/s, ${together.endedBeside} of them ended before the last plain check): ${(ratio * 100).toFixed(0)} % of alone (target within 10 %: ${ratio >= 0.9 ? 'met' : 'not met'}). Alone again once the browser pages had ended, this machine's noise between rounds: ${again.outcome.checksPerSecond.toFixed(0)} checks/s, ${(againRatio * 100).toFixed(0)} % of the first. The floor, with no browser page checks: ${bare.outcome.checksPerSecond.toFixed(0)} checks/s (${bare.cpuMs.instances.toFixed(2)} CPU ms) while a bare playwright-core script in the bench's process read the same drawn pages the same way, ${PAGES_AT_ONCE} at a time, in a Chromium of its own under the same idle policy (${bare.pagesRead} pages in the round): ${(bareRatio * 100).toFixed(0)} % of alone. Median of ${ROUNDS} runs each; a run checks every task once (every page new, Chromium started), then the plain tasks alone, then all together, then the plain tasks alone again, then beside the bare script.`,
      );
    }
    const body = [
      `Measured ${machineLine()}; load average ${load} at the start; the built service with the Chromium it starts itself (${chromiumPath()}); pages from a local page server on 127.0.0.1, every browser request through the service's egress proxy; model: the local Gemini stand-in answering at once.`,
      '',
      ...lines.flatMap((line) => [line, '']),
    ].join('\n');
    console.log(body);
    if (!only) await writeBenchmarkSection('Browser pages', body);
  } finally {
    await plain.stop();
    await drawn.stop();
    await gemini.stop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
