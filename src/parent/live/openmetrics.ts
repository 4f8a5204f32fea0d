/**
 * The live state in the Prometheus text exposition format (0.0.4), which
 * OpenMetrics parsers read too. The families and their labels are built by
 * metric-families.ts; this file only writes them as text. Latency is a classic
 * histogram here: native histograms travel only in the protobuf format
 * (prometheus-protobuf.ts).
 */
import { LATENCY_BUCKET_BOUNDS_SECONDS } from './latency-buckets.js';
import type { LiveState } from './state.js';
import { openMetricsHelp, openMetricsLabelValue } from '../escape/openmetrics.js';
import { metricFamilies, type Labels, type MetricFamily } from './metric-families.js';

export const TEXT_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** The exposition text of the state as it stands. */
export function renderMetrics(state: LiveState): string {
  return `${metricFamilies(state).map(familyText).join('\n')}\n`;
}

function familyText(family: MetricFamily): string {
  const lines = [`# HELP ${family.name} ${openMetricsHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`];
  if (family.type !== 'histogram')
    for (const { labels, value } of family.samples) lines.push(sample(family.name, labels, value));
  else {
    for (const { labels, histogram } of family.samples) {
      LATENCY_BUCKET_BOUNDS_SECONDS.forEach((bound, i) => {
        lines.push(sample(`${family.name}_bucket`, [...labels, ['le', String(bound)]], histogram.cumulativeCounts[i]!));
      });
      lines.push(sample(`${family.name}_bucket`, [...labels, ['le', '+Inf']], histogram.count));
      lines.push(sample(`${family.name}_sum`, labels, histogram.sumSeconds));
      lines.push(sample(`${family.name}_count`, labels, histogram.count));
    }
  }
  return lines.join('\n');
}

function sample(name: string, labels: Labels, value: number): string {
  const text = labels.length === 0 ? '' : `{${labels.map(([k, v]) => `${k}="${openMetricsLabelValue(v)}"`).join(',')}}`;
  return `${name}${text} ${formatValue(value)}`;
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  return String(value);
}
