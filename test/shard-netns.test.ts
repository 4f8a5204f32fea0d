/**
 * Several load machines against one server, simulated with network
 * namespaces: a fanout server in one, three shards in three others, lined up
 * by shard 0's barrier. Their results merge into one whose counters are the
 * sums of the shards' and whose histograms hold every shard's samples; a shard
 * killed mid-run is named missing. Skipped, with the reason, where namespaces
 * cannot be made (not root, no iproute2).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { BIN, runCli, tempDir } from './support.js';
import { netnsUnavailable, SimulatedNetwork, type SimulatedHost } from './netns-hosts.js';
import { isMeasured, type BenchResult, type MeasuredCell } from '../src/shared/types/result-types.js';

const FANOUT_SERVER = fileURLToPath(new URL('./fixtures/fanout-server.js', import.meta.url));
const SERVER_PORT = 8080;
const BARRIER_PORT = 7070;
const CONNECTIONS = 60;
const unavailable = netnsUnavailable();

let network: SimulatedNetwork | null = null;
let server: { child: ChildProcess; lines: string[] } | null = null;
const dir = tempDir();

before(async () => {
  if (unavailable) return;
  network = new SimulatedNetwork(4);
  const host = network.hosts[0]!;
  const child = network.spawnIn(host, process.execPath, [
    FANOUT_SERVER,
    '--host',
    host.address,
    '--port',
    String(SERVER_PORT),
  ]);
  const lines: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  server = { child, lines };
  await until(() => lines.some((l) => l.startsWith('listening on')), 10_000, 'the fanout server to listen');
});

after(() => {
  // Deleting the namespaces also ends every process still in them (all started here).
  network?.destroy();
});

interface Shard {
  index: number;
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Shard `index` of 3, on its own host; shard 0 serves the barrier on its address. */
function startShard(index: number, runId: string, duration: string): Shard {
  const hosts = network!.hosts as SimulatedHost[];
  const [serverHost, barrierHost] = [hosts[0]!, hosts[1]!];
  const args = [
    BIN,
    'run',
    'fanout',
    '--target',
    `ws://${serverHost.address}:${SERVER_PORT}/`,
    '--clients',
    'ws',
    '--shard',
    `${index}/3`,
    '--run-id',
    runId,
    '--barrier',
    `http://${barrierHost.address}:${BARRIER_PORT}`,
    '--barrier-listen',
    `${barrierHost.address}:${BARRIER_PORT}`,
    '--barrier-timeout',
    '30s',
    '--connections',
    String(CONNECTIONS),
    '--interval',
    '50ms',
    '--duration',
    duration,
    '--out',
    join(dir, `${runId}-${index}.json`),
    '--json-line',
  ];
  const child = network!.spawnIn(hosts[index + 1]!, process.execPath, args);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => {
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    },
  );
  return { index, child, done };
}

test('three shards on three hosts against one server merge into one result holding every client', {
  skip: unavailable ?? false,
  timeout: 120_000,
}, async () => {
  const shards = [0, 1, 2].map((i) => startShard(i, 'netns-run', '1s'));
  const outcomes = await Promise.all(shards.map((s) => s.done));
  const logs = outcomes.map((outcome, i) => {
    assert.equal(outcome.code, 0, `shard ${i}: ${outcome.stderr}`);
    // --json-line: the result is one line of stdout, the way `kubectl logs` hands it to merge.
    assert.equal(outcome.stdout.trimEnd().split('\n').length, 1);
    const log = join(dir, `shard-${i}.log`);
    writeFileSync(log, outcome.stdout);
    return log;
  });
  // Shard 0's barrier listens on its host's address, beyond loopback: it says so, once.
  assert.match(
    outcomes[0]!.stderr,
    /^warning: the barrier \(--barrier-listen\) listens on 10\.213\.0\.\d+:7070, beyond loopback: the run is visible to the network$/m,
  );
  const results = outcomes.map((o) => JSON.parse(o.stdout) as BenchResult);
  for (const [i, result] of results.entries()) {
    assert.equal(result.shard?.index, i);
    assert.equal(result.shard?.configHash, results[0]!.shard?.configHash);
    assert.equal(result.shard?.start.mode, 'barrier');
    assert.equal(typeof result.shard?.clockOffsetMs, 'number');
    assert.equal(typeof result.shard?.monotonicOffsetMs, 'number', 'the probe measured the clock one-way delays use');
  }
  const cells = results.map((r) => r.cells[0]!);
  for (const cell of cells) assert.ok(isMeasured(cell) && cell.status === 'ok', JSON.stringify(cell).slice(0, 300));
  const parts = cells as MeasuredCell[];
  // Each shard took its own third of the connections.
  assert.deepEqual(
    parts.map((c) => c.measurements.counters.connected),
    [20, 20, 20],
  );

  const mergedPath = join(dir, 'merged.json');
  const merged = await runCli(['merge', ...logs, '--out', mergedPath]);
  assert.equal(merged.code, 0, merged.stderr);
  const result = JSON.parse(readFileSync(mergedPath, 'utf8')) as BenchResult;
  const cell = result.cells[0]!;
  assert.ok(isMeasured(cell) && cell.status === 'ok');
  const names = new Set(parts.flatMap((c) => Object.keys(c.measurements.counters)));
  for (const name of names) {
    const sum = parts.reduce((total, c) => total + (c.measurements.counters[name] ?? 0), 0);
    assert.equal(cell.measurements.counters[name], sum, `counter ${name}`);
  }
  assert.equal(
    cell.measurements.latency.delay?.count,
    parts.reduce((total, c) => total + c.measurements.latency.delay!.count, 0),
  );
  // Every tick to every client is accounted for: received or missing.
  const ticks = 20;
  assert.equal(
    (cell.measurements.counters.received ?? 0) + (cell.measurements.counters.missing ?? 0),
    CONNECTIONS * ticks,
  );
  assert.equal(cell.resources.clients.length, 3, 'the client process of every shard');
  assert.ok(cell.measurements.windowMs > 0, 'the shards measured in one common window');
  assert.deepEqual(
    result.merge?.shards.map((s) => s.status),
    ['ok', 'ok', 'ok'],
  );

  // The merged table shows all the clients, and the merged file reports like any other.
  assert.equal(columnOf(merged.stdout, 'conn'), String(CONNECTIONS));
  const report = await runCli(['report', mergedPath, '--out', join(dir, 'merged.report')]);
  assert.equal(report.code, 0, report.stderr);
  assert.ok(existsSync(join(dir, 'merged.report', 'report.html')));
});

test('a shard killed mid-run is named missing in the merge', {
  skip: unavailable ?? false,
  timeout: 120_000,
}, async () => {
  const streamsBefore = server!.lines.filter((l) => l === 'streaming').length;
  const shards = [0, 1, 2].map((i) => startShard(i, 'netns-kill', '3s'));
  // The stream starts when the barrier has released every shard's window.
  await until(
    () => server!.lines.filter((l) => l === 'streaming').length > streamsBefore,
    60_000,
    'the stream to start',
  );
  shards[2]!.child.kill('SIGKILL');
  const outcomes = await Promise.all(shards.map((s) => s.done));
  assert.equal(outcomes[2]!.signal, 'SIGKILL');
  const logs = outcomes.slice(0, 2).map((outcome, i) => {
    assert.equal(outcome.code, 0, `shard ${i}: ${outcome.stderr}`);
    const log = join(dir, `kill-${i}.log`);
    writeFileSync(log, outcome.stdout);
    return log;
  });
  const mergedPath = join(dir, 'merged-kill.json');
  const merged = await runCli(['merge', ...logs, '--out', mergedPath]);
  assert.equal(merged.code, 1, 'a cell lacking a shard is not ok');
  assert.match(merged.stderr, /warning: shard 2 of 3 missing/);
  const result = JSON.parse(readFileSync(mergedPath, 'utf8')) as BenchResult;
  assert.deepEqual(
    result.merge?.shards.map((s) => s.status),
    ['ok', 'ok', 'missing'],
  );
  const cell = result.cells[0]!;
  assert.equal(cell.status, 'failed');
  assert.match('reason' in cell ? cell.reason : '', /shard 2: missing/);
});

/** The value under `header` in the first row of a rendered table. */
function columnOf(table: string, header: string): string | undefined {
  const lines = table.split('\n');
  const head = lines.findIndex((l) => new RegExp(`\\b${header}\\b`).test(l));
  if (head < 0) return undefined;
  const headers = lines[head]!.trim().split(/\s{2,}/);
  const row = lines[head + 1]!.trim().split(/\s{2,}/);
  return row[headers.indexOf(header)];
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
