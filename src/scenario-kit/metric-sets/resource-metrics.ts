/**
 * The process costs a scenario shows beside its own metrics: the server's CPU and
 * peak RSS, and the client processes', read from /proc by wsbench (no counting in
 * the scenario). Declared once here so that every scenario's columns read alike;
 * a scenario spreads the ones it shows where it wants them in its table order:
 * `serverCpuPercent: SERVER_CPU_METRIC`.
 */
import type { MetricDefinition } from '../../scenario-types.js';

export const SERVER_CPU_METRIC: MetricDefinition = {
  header: 'srv CPU%',
  unit: '%',
  better: 'lower',
  role: 'detail',
  source: { resource: 'server', stat: 'cpuMean' },
};

export const SERVER_RSS_METRIC: MetricDefinition = {
  header: 'srv RSS',
  unit: 'bytes',
  better: 'lower',
  role: 'detail',
  source: { resource: 'server', stat: 'rssMax' },
};

export const CLIENT_CPU_METRIC: MetricDefinition = {
  header: 'cli CPU%',
  unit: '%',
  better: 'lower',
  role: 'detail',
  source: { resource: 'clients', stat: 'cpuMean' },
};

export const CLIENT_RSS_METRIC: MetricDefinition = {
  header: 'cli RSS',
  unit: 'bytes',
  better: 'lower',
  role: 'detail',
  source: { resource: 'clients', stat: 'rssMax' },
};
