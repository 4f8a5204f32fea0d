/**
 * The process costs a scenario shows beside its own metrics: the server's CPU and
 * peak RSS, and the client processes', read from /proc by wsbench (no counting in
 * the scenario). Declared once here so that every scenario's columns read alike;
 * a scenario spreads the ones it shows where it wants them in its table order:
 * `serverCpuPercent: RESOURCE_METRICS.serverCpu`.
 */
import type { MetricDefinition } from '../../types/scenario-types.js';

/**
 * The metrics of each process's resources in the window, read from /proc by wsbench: `serverCpu` and
 * `clientCpu` (mean CPU %, `srv CPU%`, `cli CPU%`), `serverRss` and `clientRss` (peak RSS in bytes).
 */
export const RESOURCE_METRICS: Readonly<
  Record<'serverCpu' | 'serverRss' | 'clientCpu' | 'clientRss', MetricDefinition>
> = {
  serverCpu: {
    header: 'srv CPU%',
    unit: '%',
    better: 'lower',
    role: 'detail',
    source: { resource: 'server', stat: 'cpuMean' },
  },
  serverRss: {
    header: 'srv RSS',
    unit: 'bytes',
    better: 'lower',
    role: 'detail',
    source: { resource: 'server', stat: 'rssMax' },
  },
  clientCpu: {
    header: 'cli CPU%',
    unit: '%',
    better: 'lower',
    role: 'detail',
    source: { resource: 'clients', stat: 'cpuMean' },
  },
  clientRss: {
    header: 'cli RSS',
    unit: 'bytes',
    better: 'lower',
    role: 'detail',
    source: { resource: 'clients', stat: 'rssMax' },
  },
};
