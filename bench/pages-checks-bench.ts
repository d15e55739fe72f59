/**
 * Page monitors' checks (issue "Page monitors", speed and memory), against the built service:
 *  A. PAGES_DUE (default 2,000) page tasks, one 100 kB HTML page each on a local page server,
 *     checked once (the baseline), then due again with every page unchanged: checks/s with two
 *     instances, duplicates, missed, and the model calls the stand-in answered (0 expected). Run
 *     with validators (ETag: a 304 each) and without (each page read and compared again).
 *  B. The same tasks with every page changed before the measured round (every check calls the
 *     zero-latency model stand-in), taking turns with as many search checks (no pages): the
 *     ratio of their checks/s.
 *  C. One instance reading 200 pages of 5 MB at once (one check each, the pages spread over 50
 *     loopback hosts so that no host's limit of 4 fetches holds them back, only the instance's
 *     limit of pages at once): the worker's RSS, sampled from /proc every 100 ms.
 */
import { GeminiStandIn, checkReply } from '../test/support/gemini-stand-in';
import { MAX_PAGE_BYTES } from '../src/pages/fetching/page-fetcher';
import { PAGES_AT_ONCE } from '../src/pages/page-stage.service';
import {
  awaitChecks,
  cataloguePage,
  machineLine,
  seedDueTasks,
  startServer,
  writeBenchmarkSection,
  type Outcome,
} from './bench-support';
import {
  BenchPageServer,
  CONCURRENCY,
  PAGES_DUE,
  roundReport,
  ROUNDS,
  catalogueRender,
  median,
  pageRound,
  roundRow,
  searchRound,
  startInstances,
  type Round,
} from './page-bench-support';

const PAGE_BYTES = 100_000;
/** Just under the most of a body a page check reads (the page server adds a head). */
const BIG_PAGE_BYTES = MAX_PAGE_BYTES - 10_000;
const BIG_PAGES = 200;
const BIG_PAGE_HOSTS = 50;
const SOURCES = [{ uri: 'https://www.shop.example/products/42', title: 'Example product' }];

/** One instance, BIG_PAGES checks of 5 MB pages due at once: the worker's RSS while they run. */
async function bigPagesRss(
  adminUrl: string,
  gemini: GeminiStandIn,
): Promise<{ outcome: Outcome; maxKb: number; beforeKb: number; failures: string }> {
  const pages = await new BenchPageServer(catalogueRender(cataloguePage(BIG_PAGE_BYTES, ''))).start(
    BIG_PAGE_HOSTS,
  );
  const run = await startInstances(adminUrl, 'big', gemini, 1);
  try {
    const fields = { pageUrl: (n: number) => pages.url(n, 1 + (n % BIG_PAGE_HOSTS)) };
    const beforeKb = await run.services[0].rssKb();
    const seeded = await seedDueTasks(run.pool, run.boss, BIG_PAGES, BIG_PAGES, 1500, fields);
    let maxKb = beforeKb;
    const sampler = setInterval(
      () =>
        void run.services[0].rssKb().then((kb) => {
          maxKb = Math.max(maxKb, kb);
        }),
      100,
    );
    const outcome = await awaitChecks(run.pool, seeded, 300_000);
    clearInterval(sampler);
    const { rows } = await run.pool.query<{ error_message: string; count: number }>(
      `SELECT error_message, count(*)::int AS count FROM executions WHERE status = 'failed'
       GROUP BY 1 ORDER BY 2 DESC`,
    );
    const failures = rows.map((row) => `${row.count} × "${row.error_message}"`).join(', ');
    return { outcome, maxKb, beforeKb, failures };
  } finally {
    await run.close();
    await pages.stop();
  }
}

async function main(): Promise<void> {
  const load = (await import('node:os')).loadavg()[0].toFixed(2);
  const only = process.env.BENCH_PAGES_ONLY;
  const server = await startServer();
  const gemini = await new GeminiStandIn().start();
  gemini.recordRequests = false;
  gemini.respondWith(checkReply({ sources: SOURCES }));
  const pages = await new BenchPageServer(catalogueRender(cataloguePage(PAGE_BYTES, ''))).start();
  const fields = { pageUrl: (n: number) => pages.url(n) };
  try {
    const rows: string[] = [];
    const notes: string[] = [];
    if (!only || only === 'unchanged') {
      const withValidators: Round[] = [];
      const withoutValidators: Round[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        pages.validators = true;
        withValidators.push(await pageRound(server.adminUrl, gemini, 'etag', fields, () => {}));
        pages.validators = false;
        withoutValidators.push(await pageRound(server.adminUrl, gemini, 'plain', fields, () => {}));
      }
      rows.push(
        roundRow(`${PAGES_DUE} due, unchanged, ETag (304 each)`, median(withValidators)),
        roundRow(
          `${PAGES_DUE} due, unchanged, no validators (each body fetched again)`,
          median(withoutValidators),
        ),
      );
    }
    if (!only || only === 'changed') {
      const changed: Round[] = [];
      const search: Round[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        changed.push(
          await pageRound(server.adminUrl, gemini, 'changed', fields, () => {
            pages.edition += 1;
          }),
        );
        search.push(await searchRound(server.adminUrl, gemini));
      }
      const pageRun = median(changed);
      const searchRun = median(search);
      rows.push(
        roundRow(`${PAGES_DUE} due, every page changed (one model call each)`, pageRun),
        roundRow(`${PAGES_DUE} due, search checks (no pages)`, searchRun),
      );
      notes.push(
        `Changed pages against search checks: ${((pageRun.outcome.checksPerSecond / searchRun.outcome.checksPerSecond) * 100).toFixed(0)} % of the search checks/s.`,
      );
    }
    if (!only || only === 'rss') {
      const big = await bigPagesRss(server.adminUrl, gemini);
      notes.push(
        `${BIG_PAGES} checks of ${BIG_PAGE_BYTES / 1e6} MB pages due at once on one instance (${BIG_PAGE_HOSTS} loopback hosts, so only the instance's limit of ${PAGES_AT_ONCE} pages at once holds them back): worker RSS ${(big.beforeKb / 1024).toFixed(0)} MiB before, max ${(big.maxKb / 1024).toFixed(0)} MiB while they ran (sampled every 100 ms); ${big.outcome.checksPerSecond.toFixed(1)} checks/s, ${big.outcome.missed} without a successful check${big.failures ? ` (failed: ${big.failures})` : ''}.`,
      );
    }
    const body = roundReport(
      `Measured ${machineLine()}; load average ${load} at the start; two instances of the built service, WORKER_CONCURRENCY=${CONCURRENCY}; pages of ${PAGE_BYTES / 1000} kB HTML from a local page server on 127.0.0.1 (one host: at most 4 fetches at a time per instance); model: the local Gemini stand-in answering at once. Each row is the median of ${ROUNDS} runs; the page and search runs take turns. A run checks every task once (every page new), then makes them due again and measures that round.`,
      rows,
      notes,
    );
    console.log(body);
    if (!only) await writeBenchmarkSection('Page monitors: checks', body);
  } finally {
    await pages.stop();
    await gemini.stop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
