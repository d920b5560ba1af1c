/**
 * A strict parser of Prometheus's text exposition format (version 0.0.4): every line is a HELP, a
 * TYPE or a sample, names and label names as the format allows, label values escaped, each sample
 * belonging to a family whose TYPE came first (a histogram's `_bucket`, `_sum`, `_count`). Anything
 * else throws, naming the line: a scrape Prometheus would refuse fails the test.
 */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}
export interface Family {
  readonly name: string;
  readonly type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help?: string;
  readonly samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

const number = (text: string, line: string): number => {
  // as Prometheus reads it (Go's ParseFloat): NaN in any case; prom-client writes `Nan` for an empty event-loop histogram
  if (/^nan$/i.test(text)) return NaN;
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`not a number: ${JSON.stringify(text)} in ${line}`);
  return Number(text);
};

/** `{a="x",b="y"}` from `i` (just past the name); answers the labels and where they end. */
const labelsAt = (line: string, i: number): [Record<string, string>, number] => {
  const labels: Record<string, string> = {};
  if (line[i] !== '{') return [labels, i];
  i++;
  while (line[i] !== '}') {
    const eq = line.indexOf('=', i);
    if (eq < 0) throw new Error(`bad labels in ${line}`);
    const name = line.slice(i, eq);
    if (!LABEL.test(name) || name in labels) throw new Error(`bad label name ${JSON.stringify(name)} in ${line}`);
    if (line[eq + 1] !== '"') throw new Error(`unquoted label value in ${line}`);
    let value = '';
    let j = eq + 2;
    for (; j < line.length && line[j] !== '"'; j++) {
      if (line[j] === '\\') {
        const next = line[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape in ${line}`);
      } else value += line[j];
    }
    if (line[j] !== '"') throw new Error(`unterminated label value in ${line}`);
    labels[name] = value;
    i = j + 1;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') throw new Error(`expected , or } in ${line}`);
  }
  return [labels, i + 1];
};

export const parsePrometheusText = (text: string): Map<string, Family> => {
  const families = new Map<string, Family>();
  const familyOf = (sample: string): Family | undefined => {
    const direct = families.get(sample);
    if (direct) return direct;
    for (const suffix of ['_bucket', '_sum', '_count']) {
      const f = sample.endsWith(suffix) ? families.get(sample.slice(0, -suffix.length)) : undefined;
      if (f && (f.type === 'histogram' || (f.type === 'summary' && suffix !== '_bucket'))) return f;
    }
    return undefined;
  };
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) continue; // a comment
      const [, kind, name, rest] = m as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`bad metric name in ${line}`);
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`bad type in ${line}`);
        if (families.get(name)?.samples.length) throw new Error(`TYPE after samples: ${line}`);
        families.set(name, { name, type: rest as Family['type'], ...(families.get(name)?.help !== undefined ? { help: families.get(name)!.help } : {}), samples: [] });
      } else {
        const f = families.get(name) ?? { name, type: 'untyped' as const, samples: [] };
        f.help = rest;
        families.set(name, f);
      }
      continue;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) throw new Error(`bad sample line: ${line}`);
    const name = line.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`bad metric name in ${line}`);
    const [labels, end] = labelsAt(line, nameEnd);
    const fields = line.slice(end).trim().split(/\s+/);
    if (line[end] !== ' ' || fields.length < 1 || fields.length > 2) throw new Error(`bad sample line: ${line}`);
    const family = familyOf(name);
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    family.samples.push({ name, labels, value: number(fields[0]!, line) });
  }
  for (const f of families.values()) {
    if (f.type !== 'histogram') continue;
    // each series' buckets rise and end at +Inf, which equals its _count
    const series = new Map<string, Sample[]>();
    for (const s of f.samples.filter((x) => x.name.endsWith('_bucket'))) {
      const { le, ...rest } = s.labels;
      if (le === undefined) throw new Error(`${f.name}: a bucket without le`);
      const key = JSON.stringify(rest);
      series.set(key, [...(series.get(key) ?? []), s]);
    }
    for (const [key, buckets] of series) {
      for (let i = 1; i < buckets.length; i++) if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${f.name}${key}: buckets fall`);
      const last = buckets[buckets.length - 1]!;
      const count = f.samples.find((x) => x.name === `${f.name}_count` && JSON.stringify(x.labels) === key);
      if (last.labels.le !== '+Inf' || !count || count.value !== last.value) throw new Error(`${f.name}${key}: +Inf bucket and _count disagree`);
    }
  }
  return families;
};
