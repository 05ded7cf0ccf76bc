/** One family of the Prometheus text format: its help, type and samples. */
export interface MetricFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/;
const SUFFIXES: Record<MetricFamily['type'], string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/**
 * Parses the Prometheus text exposition format (version 0.0.4) strictly: every sample must
 * belong to a family declared by `# TYPE` before it (histograms: `_bucket`, `_sum`, `_count`),
 * labels must be well formed, values numbers. Anything else throws, naming the line.
 */
const SPECIAL_VALUES = new Map([
  ['nan', Number.NaN],
  ['+inf', Number.POSITIVE_INFINITY],
  ['inf', Number.POSITIVE_INFINITY],
  ['-inf', Number.NEGATIVE_INFINITY],
]);

export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const help = new Map<string, string>();
  for (const [index, line] of text.split('\n').entries()) {
    const fail = (why: string) => new Error(`line ${index + 1} (${JSON.stringify(line)}): ${why}`);
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta !== null) {
      const [, kind, name = '', rest = ''] = meta;
      if (!new RegExp(`^${NAME}$`).test(name)) throw fail('bad metric name');
      if (kind === 'HELP') help.set(name, rest);
      else {
        if (!(rest in SUFFIXES)) throw fail(`unknown type ${rest}`);
        if (families.has(name)) throw fail('a second TYPE line');
        families.set(name, {
          name,
          help: help.get(name) ?? '',
          type: rest as MetricFamily['type'],
          samples: [],
        });
      }
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (match === null) throw fail('not a sample line');
    const [, sampleName = '', labelText = '', valueText = ''] = match;
    // Prometheus reads values as Go's ParseFloat does: NaN and Inf in any case (prom-client writes `Nan`).
    const special = SPECIAL_VALUES.get(valueText.toLowerCase());
    const value = special ?? Number(valueText);
    if (Number.isNaN(value) && special === undefined) throw fail(`bad value ${valueText}`);
    const labels: Record<string, string> = {};
    for (let rest = labelText; rest !== ''; ) {
      const label = LABEL.exec(rest);
      if (label === null) throw fail(`bad labels at ${rest}`);
      labels[label[1] as string] = (label[2] as string).replace(/\\(.)/g, (_, c: string) =>
        c === 'n' ? '\n' : c,
      );
      rest = rest.slice(label[0].length);
    }
    const family = [...families.values()].find((f) =>
      SUFFIXES[f.type].some((suffix) => `${f.name}${suffix}` === sampleName),
    );
    if (family === undefined) throw fail(`sample ${sampleName} of no declared family`);
    family.samples.push({ name: sampleName, labels, value });
  }
  return families;
}

/** `/metrics` of a running server, parsed strictly. */
export async function scrapeMetrics(baseUrl: string): Promise<Map<string, MetricFamily>> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain')) throw new Error(`/metrics content-type is ${type}`);
  return parsePrometheusText(await response.text());
}

/**
 * The value of the sample named `sample` (default: the family's own name) whose labels include
 * `labels`; 0 when there is none. For a histogram, ask for `<name>_count` or `<name>_sum`.
 */
export function sampleValue(
  families: Map<string, MetricFamily>,
  sample: string,
  labels: Record<string, string> = {},
): number {
  const family = [...families.values()].find((f) => f.samples.some((s) => s.name === sample));
  const found = family?.samples.find(
    (s) => s.name === sample && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  return found?.value ?? 0;
}
