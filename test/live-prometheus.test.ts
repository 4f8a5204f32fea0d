/**
 * A real Prometheus scrapes a short run's /metrics; a value queried back
 * through its HTTP API equals the result file's. Skips where the prometheus
 * binary is absent (.ci/run installs Debian's package; its service is never
 * started: the test runs the binary on loopback with its own config and storage).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCli, type LiveCli } from './live-cli.js';
import { tempDir } from './support.js';
import type { BenchResult } from '../src/result-types.js';

const PROMETHEUS = process.env.WSBENCH_PROMETHEUS ?? '/usr/bin/prometheus';
const folder = mkdtempSync(join(tmpdir(), 'wsbench-prometheus-'));
let prometheus: ChildProcess | null = null;
let cli: LiveCli | null = null;

after(async () => {
  if (cli && cli.child.exitCode === null) cli.child.kill('SIGKILL');
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    prometheus.kill('SIGTERM');
    const killer = setTimeout(() => prometheus!.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  }
  rmSync(folder, { recursive: true, force: true });
});

const skip = existsSync(PROMETHEUS) ? false : `no prometheus at ${PROMETHEUS} (apt-get install prometheus, or set WSBENCH_PROMETHEUS)`;

test('Prometheus scrapes a run, and a counter it stored equals the result file\'s', { skip, timeout: 180_000 }, async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  // The linger holds /metrics open until Prometheus has scraped the final values.
  cli = startCli(['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '3s', '--metrics-listen', '127.0.0.1:0', '--metrics-linger', '60s', '--out', out], { timeoutMs: 150_000 });
  await cli.waitForStderr(/metrics: http:\/\/127\.0\.0\.1:\d+\/metrics/);
  const target = /metrics: http:\/\/(127\.0\.0\.1:\d+)\/metrics/.exec(cli.stderr())![1]!;

  const api = `http://127.0.0.1:${await freePort()}`;
  writeFileSync(join(folder, 'prometheus.yml'), [
    // A scrape that outlasts its timeout is a failed one, though wsbench answered it: a busy machine needs room.
    'global:',
    '  scrape_interval: 1s',
    '  scrape_timeout: 1s',
    'scrape_configs:',
    '  - job_name: wsbench',
    '    static_configs:',
    `      - targets: ['${target}']`,
    '',
  ].join('\n'));
  prometheus = spawn(PROMETHEUS, [
    `--config.file=${join(folder, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(folder, 'data')}`,
    `--web.listen-address=${api.slice('http://'.length)}`,
    '--log.level=warn',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let prometheusLog = '';
  prometheus.stderr!.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));

  const { code } = await cli.finished;
  assert.equal(code, 0, cli.stderr());
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const cell = result.cells[0]!;
  assert.equal(cell.status, 'ok');
  const received = cell.measurements!.counters.received!;
  assert.ok(received > 0);

  // Prometheus commits a scrape after wsbench has answered it: once a scrape of the gone wsbench has
  // failed, the ones before it are all stored (a target's scrapes run one after the other).
  await queryUntilFound(api, 'up{job="wsbench"} == 0', () => prometheusLog);
  // The series are stale now, so the last value stored is asked for.
  const stored = await queryUntilFound(api, 'last_over_time(wsbench_messages_total{job="wsbench",counter="received",server="ws",client="ws"}[10m])', () => prometheusLog);
  assert.equal(Number(stored), received, 'Prometheus holds the final count of the result file');
  const state = await queryUntilFound(api, 'last_over_time(wsbench_cell_state{job="wsbench",state="ok"}[10m])', () => prometheusLog);
  assert.equal(Number(state), 1);
});

/** The single value of an instant query, asked until Prometheus has one (it ingests within a scrape). */
async function queryUntilFound(api: string, query: string, log: () => string): Promise<string> {
  const deadline = Date.now() + 60_000;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(query)}`, { signal: AbortSignal.timeout(5000) });
      last = await response.text();
      const body = JSON.parse(last) as { data?: { result?: Array<{ value: [number, string] }> } };
      const found = body.data?.result ?? [];
      if (found.length === 1) return found[0]!.value[1];
      assert.ok(found.length === 0, `one series expected: ${last}`);
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no value for ${query}: ${last}\n${log()}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
