/**
 * The log's masking of secrets against texts built to make a backtracking pattern rescan them
 * (`test/support/hostile-text.ts`), each ending in an address to mask, with the shapes of every
 * registered provider and channel: CPU time per text at 10 kB and 100 kB, against the bare limit
 * of one pass over the same text (`indexOf` of a character it does not hold). Linear masking
 * costs about ten times as much at 100 kB as at 10 kB; a quadratic one a hundred.
 */
import { LogRedaction } from '../src/common/logging/log-redaction';
import { LOG_SECRETS } from '../src/log-secrets';
import { hostileTexts } from '../test/support/hostile-text';
import { machineLine, writeBenchmarkSection } from './bench-support';

const ROUNDS = 20;
const redaction = new LogRedaction(LOG_SECRETS);

function cpuMs(work: () => unknown): number {
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.cpuUsage();
    work();
    const used = process.cpuUsage(started);
    samples.push((used.user + used.system) / 1000);
  }
  return samples.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

async function main(): Promise<void> {
  // A secret at the end, so every shape runs over the whole text.
  const withSecret = (texts: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(texts).map(([name, text]) => [name, `${text} ops@example.org`]),
    );
  const small = withSecret(hostileTexts(10_000));
  const large = withSecret(hostileTexts(100_000));
  const rows = Object.keys(large).map((name) => {
    const at10 = cpuMs(() => redaction.scrub(small[name]));
    const at100 = cpuMs(() => redaction.scrub(large[name]));
    const bare = cpuMs(() => large[name].indexOf('\u0000'));
    return `| ${name} | ${at10.toFixed(2)} | ${at100.toFixed(2)} | ${(at100 / Math.max(at10, 0.001)).toFixed(1)}x | ${bare.toFixed(3)} |`;
  });
  const body = [
    `${machineLine()}; median CPU ms of ${ROUNDS} runs of \`LogRedaction.scrub\` (every registered shape) per text.`,
    '',
    '| text | 10 kB | 100 kB | 100 kB / 10 kB | one pass, 100 kB |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  console.log(body);
  await writeBenchmarkSection('Log redaction against hostile text', body);
}

void main();
