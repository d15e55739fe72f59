/**
 * Page monitors' text extraction (docs/pages.md, "Reading the text"): wall time to read a
 * generated 1 MB HTML page (decoding, parsing, visible text, bot-check test), with and without a
 * CSS selector, median of PAGES_BENCH_RUNS runs (default 30) after a few warm-up runs.
 */
import { loadavg } from 'node:os';
import { readPageText } from '../src/pages/reading/page-text';
import { cataloguePage, machineLine, percentile, writeBenchmarkSection } from './bench-support';

const RUNS = Number(process.env.PAGES_BENCH_RUNS ?? 30);
const WARM_UP_RUNS = 3;
const PAGE_BYTES = 1_000_000;

function medianMs(read: () => unknown): number {
  for (let run = 0; run < WARM_UP_RUNS; run++) read();
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const startedAt = process.hrtime.bigint();
    read();
    samples.push(Number(process.hrtime.bigint() - startedAt) / 1e6);
  }
  return percentile(
    samples.sort((a, b) => a - b),
    50,
  );
}

async function main(): Promise<void> {
  const load = loadavg()[0].toFixed(2);
  const body = cataloguePage(PAGE_BYTES);
  const page = { contentType: 'text/html', charset: 'utf-8', body };
  const whole = medianMs(() => readPageText(page));
  const selected = medianMs(() => readPageText(page, 'div.item h2'));
  const result = [
    `${machineLine()}; load average ${load} at the start; a generated ${(body.length / 1e6).toFixed(2)} MB HTML page, median wall ms of ${RUNS} runs of \`readPageText\` (one pass of htmlparser2; the selector tested on each element as it opens).`,
    '',
    '| extraction | median ms |',
    '|---|---|',
    `| visible text of the body | ${whole.toFixed(1)} |`,
    `| text of a CSS selector (\`div.item h2\`) | ${selected.toFixed(1)} |`,
  ].join('\n');
  console.log(result);
  await writeBenchmarkSection('Page text extraction', result);
}

void main();
