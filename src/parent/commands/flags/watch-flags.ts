/**
 * What watches a run while it goes on: the live views (a dashboard, Prometheus
 * /metrics; live-flags.ts reads them) and the journal beside --out that lets
 * `wsbench recover` rebuild a run killed before it wrote its result
 * (journal-flags.ts).
 */
import type { FlagDeclaration } from './flag-types.js';

/** Where a live view listens when no host is named: another address is only ever bound when named. */
export const LOOPBACK = '127.0.0.1';
export const DEFAULT_METRICS_LINGER_MS = 15_000;

export const WATCH_FLAGS: readonly FlagDeclaration[] = [
  {
    flag: '--dashboard',
    value: '[host:port]',
    help: `serve a live page of the run (default ${LOOPBACK}:0, a free port; its URL is printed on stderr)`,
    commands: { run: true },
  },
  {
    flag: '--metrics-listen',
    value: '<host:port>',
    help: 'serve Prometheus metrics at http://HOST:PORT/metrics while the run goes on (:PORT is loopback)',
    commands: { run: true },
  },
  {
    flag: '--metrics-linger',
    value: '<duration>',
    help: `after the run, keep /metrics up until one more scrape, at most this long (default ${DEFAULT_METRICS_LINGER_MS / 1000}s; 0s closes at once)`,
    commands: { run: true },
  },
  {
    flag: '--no-journal',
    help: 'write no journal beside --out while the run goes on (a run killed with SIGKILL then loses what it measured)',
    commands: { run: true },
  },
  {
    flag: '--keep-journal',
    commands: {
      run: { help: 'keep <out>.journal after the result is written (by default it is removed then)' },
      recover: { help: 'keep the journal after the result is written (by default it is removed then)' },
    },
  },
  {
    flag: '--discard-journal',
    help: "start even though --out's journal holds a run that stopped without writing its result (it is overwritten)",
    commands: { run: true },
  },
];
