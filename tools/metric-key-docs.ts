/**
 * The "Metric keys" section of a built-in scenario's page (docs/scenarios/NAME.md): one table row per
 * key of its cells' `metrics`, with the key's unit and what it measures. The keys and units come from
 * the scenario's declarations, as the result records them (src/parent/engine/scenario-info.ts); the words of
 * the last column are the page's own. test/scenario-metric-keys.test.ts holds the pages to them; to
 * print a scenario's section as its declarations word it:
 *
 *   npm run build && node dist/tools/metric-key-docs.js echo
 */
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../src/child/scenario-loader.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import type { HistogramStat, MetricInfo, ResourceSource } from '../src/shared/types/declaration-types.js';
import { headings } from './markdown.js';

export const SECTION_HEADING = 'Metric keys';

/** One documented key: its unit as the page gives it. */
export interface DocumentedKey {
  key: string;
  unit: string;
}

/** The metrics a built-in scenario's cells carry, by key, as its declarations say. */
export async function declaredMetrics(name: string): Promise<Record<string, MetricInfo>> {
  const { scenario } = await loadScenario(name);
  return scenarioInfo(scenario).metrics;
}

const cell = (text: string): string => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

const STAT_WORDS: Record<HistogramStat, string> = {
  count: 'samples in',
  min: 'minimum of',
  mean: 'mean of',
  stdev: 'standard deviation of',
  p50: 'median (p50) of',
  p90: 'p90 of',
  p99: 'p99 of',
  p999: 'p99.9 of',
  max: 'maximum of',
};
const RESOURCE_WORDS: Record<ResourceSource['stat'], string> = {
  cpuMean: 'mean CPU',
  cpuMax: 'highest CPU',
  rssMean: 'mean memory (RSS)',
  rssMax: 'highest memory (RSS)',
};

/** What a metric measures, in words, from its declaration: where its value comes from, and its description. */
export function meaningOf(metric: MetricInfo): string {
  const { source } = metric;
  const about = metric.description ?? metric.header;
  if ('histogram' in source) {
    const of = `${STAT_WORDS[source.stat]} ${source.side === 'server' ? "the server's " : ''}\`${source.histogram}\``;
    return metric.description ? `${of}: ${metric.description}` : of;
  }
  if ('counter' in source) {
    const counter = `counter \`${source.counter}\`${source.side === 'server' ? ', server side' : ''}`;
    return source.as === 'rate' ? `${about} (${counter}, per second of the window)` : `${about} (${counter})`;
  }
  if ('resource' in source)
    return `${RESOURCE_WORDS[source.stat]} of ${source.resource === 'server' ? 'the server' : 'the client processes together'}${metric.description ? `: ${metric.description}` : ''}`;
  return metric.description ? `${metric.description} (${source.custom})` : source.custom;
}

/** A table row for a key, worded from its declaration. */
export function rowOf(key: string, metric: MetricInfo): string {
  return `| \`${key}\` | ${cell(metric.unit)} | ${cell(meaningOf(metric))} |`;
}

/** The whole section for a scenario's metrics, as a page carries it. */
export function sectionOf(metrics: Record<string, MetricInfo>): string {
  return [
    `## ${SECTION_HEADING}`,
    '',
    "Every key of a cell's `metrics` (the result JSON, `--format csv`, `run()`'s typed result), as the",
    'scenario declares it; a value is null where there was nothing to measure, with the reason in `missing`.',
    '',
    '| key | unit | what it measures |',
    '| --- | --- | --- |',
    ...Object.entries(metrics).map(([key, metric]) => rowOf(key, metric)),
    '',
  ].join('\n');
}

/**
 * The keys the page's "Metric keys" section lists, in order; null when it has no such section. The
 * section runs from its heading to the next heading of its level or above.
 */
export function documentedKeys(page: string): DocumentedKey[] | null {
  const lines = page.split('\n');
  const all = headings(page);
  const heading = all.find((h) => h.text === SECTION_HEADING);
  if (!heading) return null;
  const next = all.find((h) => h.line > heading.line && h.level <= heading.level);
  const body = lines.slice(heading.line, next ? next.line - 1 : lines.length);
  const rows: DocumentedKey[] = [];
  for (const line of body) {
    const match = /^\|\s*`([^`]+)`\s*\|\s*([^|]*?)\s*\|/.exec(line);
    if (match) rows.push({ key: match[1]!, unit: match[2]! });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const name = process.argv[2];
  if (!name) throw new Error('usage: node dist/tools/metric-key-docs.js SCENARIO');
  process.stdout.write(sectionOf(await declaredMetrics(name)));
}
