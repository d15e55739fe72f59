/**
 * Page values, rules on values and new items (docs/pages.md, "Values read from pages", "Items
 * and feeds"), against the built service, two instances, PAGES_DUE tasks of one page each:
 *  D. Unchanged 100 kB product pages (JSON-LD offer, body fetched again each check) with a
 *     `price` and an `availability` value, taking turns with the same pages without values.
 *  E. Feed pages of 500 entries each (RSS 2.0), a `new_items` rule, nothing new in the measured
 *     round: checks/s, model calls, and the item keys written (inserted rows, 0 expected).
 *  F. Changed product pages (the price drops each edition) with a `below` rule (no model), taking
 *     turns with the same pages judged by the zero-latency model stand-in (no rule).
 */
import { GeminiStandIn, checkReply } from '../test/support/gemini-stand-in';
import { cataloguePage, machineLine, startServer, writeBenchmarkSection } from './bench-support';
import {
  BenchPageServer,
  CONCURRENCY,
  PAGES_DUE,
  roundReport,
  ROUNDS,
  median,
  pageRound,
  roundRow,
  searchRound,
  type PageRender,
  type Round,
} from './page-bench-support';

const PAGE_BYTES = 100_000;
const FEED_ENTRIES = 500;
const SOURCES = [{ uri: 'https://www.shop.example/products/42', title: 'Example product' }];
const VALUES = [
  { name: 'price', from: 'price' },
  { name: 'stock', from: 'availability' },
];

/**
 * A 100 kB catalogue page with a product's JSON-LD offer whose price falls by 1 each edition, the
 * price also shown in the page's text.
 */
function productRender(): PageRender {
  const body = cataloguePage(PAGE_BYTES, '');
  return (n, edition) => {
    const offer = {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: `Product ${n}`,
      offers: {
        '@type': 'Offer',
        price: (200 - edition).toFixed(2),
        priceCurrency: 'EUR',
        availability: 'https://schema.org/InStock',
      },
    };
    const head = `<!doctype html><html><head><title>Product ${n}</title><script type="application/ld+json">${JSON.stringify(offer)}</script></head><body><h1>Product ${n}</h1><p class="price">${offer.offers.price} EUR</p>\n`;
    return {
      contentType: 'text/html; charset=utf-8',
      body: Buffer.concat([Buffer.from(head), body]),
    };
  };
}

/** An RSS 2.0 feed of FEED_ENTRIES entries; each edition adds one entry at the top. */
function feedRender(): PageRender {
  return (n, edition) => {
    const entries = Array.from({ length: FEED_ENTRIES }, (_, index) => {
      const id = edition + FEED_ENTRIES - index;
      return `<item><title>Post ${id} of feed ${n}</title><link>https://blog.example/${n}/${id}</link><guid>https://blog.example/${n}/${id}</guid><description>Entry ${id}, some words about it.</description></item>`;
    });
    const xml = `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed ${n}</title><link>https://blog.example/${n}</link><description>Posts</description>${entries.join('')}</channel></rss>`;
    return { contentType: 'application/rss+xml', body: Buffer.from(xml) };
  };
}

async function main(): Promise<void> {
  const load = (await import('node:os')).loadavg()[0].toFixed(2);
  const only = process.env.BENCH_PAGES_ONLY;
  const server = await startServer();
  const gemini = await new GeminiStandIn().start();
  gemini.recordRequests = false;
  gemini.respondWith(checkReply({ sources: SOURCES }));
  const products = await new BenchPageServer(productRender()).start();
  const feeds = await new BenchPageServer(feedRender()).start();
  const productUrl = (n: number) => products.url(n);
  try {
    const rows: string[] = [];
    const notes: string[] = [];
    if (!only || only === 'values') {
      const withValues: Round[] = [];
      const without: Round[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const fields = { pageUrl: productUrl, pageFields: { values: VALUES } };
        withValues.push(await pageRound(server.adminUrl, gemini, 'values', fields, () => {}));
        without.push(
          await pageRound(server.adminUrl, gemini, 'novalues', { pageUrl: productUrl }, () => {}),
        );
      }
      const [valued, plain] = [median(withValues), median(without)];
      rows.push(
        roundRow(`${PAGES_DUE} due, unchanged product pages, price and availability`, valued),
        roundRow(`${PAGES_DUE} due, the same pages without values`, plain),
      );
      notes.push(
        `Unchanged product pages with values: ${((valued.outcome.checksPerSecond / plain.outcome.checksPerSecond) * 100).toFixed(0)} % of the checks/s without.`,
      );
    }
    if (!only || only === 'feeds') {
      const rounds: Round[] = [];
      const search: Round[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const fields = {
          pageUrl: (n: number) => feeds.url(n),
          pageFields: { items: {} },
          pageRule: { type: 'new_items' },
        };
        rounds.push(
          await pageRound(server.adminUrl, gemini, 'feeds', fields, () => {}, ['page_item_keys']),
        );
        search.push(await searchRound(server.adminUrl, gemini));
      }
      const [feedRun, searchRun] = [median(rounds), median(search)];
      rows.push(
        roundRow(`${PAGES_DUE} due, feeds of ${FEED_ENTRIES} entries, nothing new`, feedRun),
        roundRow(`${PAGES_DUE} due, search checks (no pages), this machine's yardstick`, searchRun),
      );
      notes.push(
        `Feeds with nothing new: item keys written in the measured round: ${feedRun.writes.page_item_keys ?? 'unknown'}; ${((feedRun.outcome.checksPerSecond / searchRun.outcome.checksPerSecond) * 100).toFixed(0)} % of the search checks/s.`,
      );
    }
    if (!only || only === 'rule') {
      const ruled: Round[] = [];
      const judged: Round[] = [];
      const changePrices = () => {
        products.edition += 1;
      };
      for (let round = 0; round < ROUNDS; round++) {
        const fields = {
          pageUrl: productUrl,
          pageFields: { values: VALUES },
          pageRule: { type: 'below', value: 'price', than: 100 },
        };
        ruled.push(await pageRound(server.adminUrl, gemini, 'below', fields, changePrices));
        judged.push(
          await pageRound(server.adminUrl, gemini, 'judged', { pageUrl: productUrl }, changePrices),
        );
      }
      const [rule, model] = [median(ruled), median(judged)];
      rows.push(
        roundRow(`${PAGES_DUE} due, changed product pages, a below rule`, rule),
        roundRow(`${PAGES_DUE} due, the same pages judged by the model stand-in`, model),
      );
      notes.push(
        `Changed product pages: the below rule checks ${(rule.outcome.checksPerSecond / model.outcome.checksPerSecond).toFixed(2)}× the checks/s of the model's verdict.`,
      );
    }
    const body = roundReport(
      `Measured ${machineLine()}; load average ${load} at the start; two instances of the built service, WORKER_CONCURRENCY=${CONCURRENCY}; 100 kB product pages and RSS feeds of ${FEED_ENTRIES} entries from a local page server on 127.0.0.1 (one host: at most 4 fetches at a time per instance); model: the local Gemini stand-in answering at once. Each row is the median of ${ROUNDS} runs; paired rows take turns. A run checks every task once (every page new), then makes them due again and measures that round.`,
      rows,
      notes,
    );
    console.log(body);
    if (!only) await writeBenchmarkSection('Page values, rules and new items: checks', body);
  } finally {
    await products.stop();
    await feeds.stop();
    await gemini.stop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
