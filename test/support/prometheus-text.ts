/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A metric family: its `# TYPE`, `# HELP` and samples. */
export interface MetricFamily {
  type: string;
  help: string;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/g;

/**
 * Parses the text format (version 0.0.4) strictly enough to catch a malformed line: every sample
 * belongs to a family declared by `# TYPE` (histograms own their `_bucket`, `_sum`, `_count`).
 */
export function parseExposition(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const familyOf = (name: string): MetricFamily => {
    let family = families.get(name);
    if (!family) {
      family = { type: '', help: '', samples: [] };
      families.set(name, family);
    }
    return family;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (comment) {
      const family = familyOf(comment[2]);
      if (comment[1] === 'HELP') family.help = comment[3];
      else family.type = comment[3];
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`Not a sample line: ${line}`);
    const [, name, labelText = '', rawValue] = sample;
    const labels: Record<string, string> = {};
    for (const match of labelText.matchAll(LABEL)) {
      labels[match[1]] = match[2].replace(/\\(.)/g, (_all, char: string) =>
        char === 'n' ? '\n' : char,
      );
    }
    const value =
      rawValue === '+Inf' ? Infinity : rawValue === '-Inf' ? -Infinity : Number(rawValue);
    if (Number.isNaN(value) && rawValue !== 'NaN') throw new Error(`Not a value: ${line}`);
    const family =
      families.get(name) ?? families.get(name.replace(/_(bucket|sum|count|total|created)$/, ''));
    if (!family) throw new Error(`Sample of an undeclared metric: ${line}`);
    family.samples.push({ name, labels, value });
  }
  return families;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
export function sampleValue(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
      ) {
        return sample.value;
      }
    }
  }
  return undefined;
}
