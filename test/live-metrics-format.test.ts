/** /metrics text from run events: families by declaration, labels, exact histogram buckets, states. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsRegistry } from '../src/shared/measure/metrics.js';
import type { RunEvent } from '../src/parent/engine/events.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import { LiveState } from '../src/parent/live/state.js';
import { renderMetrics } from '../src/parent/live/openmetrics.js';
import echo from '../scenarios/echo.js';

const params = { connections: 2, payload: 32, state: 'x', serverProcesses: 1 };
const identity = { total: 2, round: 0, scenario: 'echo', server: 'uws', client: 'ws', params };
// A parameter named like a label of wsbench's own is param_<name>; camelCase names are snake_case.
const labels =
  'scenario="echo",server="uws",client="ws",connections="2",payload="32",param_state="x",server_processes="1"';

function runOf(): { state: LiveState; text: string } {
  const client = new MetricsRegistry();
  // 10 round trips at 200 µs, 5 at 3 ms: 10 at or below 0.25 ms, all 15 at or below 5 ms.
  for (let i = 0; i < 10; i++) client.histogram('rtt').recordUs(200);
  for (let i = 0; i < 5; i++) client.histogram('rtt').recordUs(3000);
  client.counter('received').add(15);
  client.counter('sent').add(16);
  client.counter('errors').add(1);
  client.counter('connectionsOpened').add(2);
  const tick = { tick: 1, tMs: 1000, counters: client.counterValues(), intervals: client.takeIntervals() };
  const events: RunEvent[] = [
    {
      type: 'run-start',
      scenario: scenarioInfo(echo),
      cells: 2,
      repeat: 1,
      plan: [
        { server: 'uws', client: 'ws', params, skip: null },
        { server: 'bun', client: 'ws', params, skip: 'server bun unavailable' },
      ],
    },
    { type: 'cell-start', index: 0, ...identity, windowMs: 1000 },
    { type: 'window-open', index: 0 },
    { type: 'tick', index: 0, counters: tick.counters, progress: { process: 0, ticks: [tick] } },
    { type: 'resources', index: 0, role: 'server', process: 0, cpuPercent: 50, cpuSeconds: 1.25, rssBytes: 40_000_000 },
    { type: 'cell-end', index: 0, ...identity, status: 'ok', reason: null },
  ];
  const state = new LiveState();
  for (const event of events) state.onEvent(event);
  return { state, text: renderMetrics(state) };
}

test('client counters go to the family their declaration gives them, with the cell as labels', () => {
  const lines = runOf().text.split('\n');
  assert.ok(lines.includes(`wsbench_messages_total{${labels},counter="received"} 15`), 'received is read as msg/s');
  assert.ok(lines.includes(`wsbench_errors_total{${labels},counter="errors"} 1`), 'errors is an errors-role metric');
  assert.ok(
    lines.includes(`wsbench_scenario_counts_total{${labels},counter="sent"} 16`),
    'sent is declared as a plain count',
  );
  assert.ok(lines.includes(`wsbench_connections_opened_total{${labels}} 2`));
  assert.ok(lines.includes('# TYPE wsbench_messages_total counter'));
});

test('latency is a histogram in seconds with exact cumulative buckets, a factor 2^(1/8) apart', () => {
  const lines = runOf().text.split('\n');
  const buckets = lines
    .filter((l) => l.startsWith(`wsbench_latency_seconds_bucket{${labels},histogram="rtt",le="`))
    .map((l) => {
      const [, le, count] = /le="([^"]+)"\} (\d+)$/.exec(l)!;
      return { le: le === '+Inf' ? Infinity : Number(le), count: Number(count) };
    });
  assert.equal(buckets.length, 210, '209 bounds and +Inf');
  const at = (seconds: number): number => buckets.find((b) => b.le >= seconds)!.count;
  const below = (seconds: number): number => buckets.filter((b) => b.le < seconds).at(-1)!.count;
  assert.equal(below(0.0002), 0);
  assert.equal(at(0.0002), 10, 'the 200 µs samples in the first bucket that reaches 200 µs');
  assert.equal(below(0.003), 10);
  assert.equal(at(0.003), 15);
  assert.equal(buckets.at(-1)!.count, 15);
  assert.ok(lines.includes(`wsbench_latency_seconds_count{${labels},histogram="rtt"} 15`));
  const sum = Number(lines.find((l) => l.startsWith(`wsbench_latency_seconds_sum{${labels}`))!.split(' ')[1]);
  assert.ok(Math.abs(sum - (10 * 0.0002 + 5 * 0.003)) < 0.001 * sum, `sum ${sum}`);
  assert.ok(lines.includes('# TYPE wsbench_latency_seconds histogram'));
});

test('every cell run has one state, processes their CPU seconds and memory, skipped cells their state only', () => {
  const lines = runOf().text.split('\n');
  assert.ok(lines.includes(`wsbench_cell_state{${labels},state="ok"} 1`));
  assert.ok(lines.includes(`wsbench_cell_state{${labels},state="running"} 0`));
  assert.ok(lines.includes(`wsbench_cell_state{${labels.replace('uws', 'bun')},state="skipped"} 1`));
  assert.ok(lines.includes('wsbench_cell_runs{scenario="echo",state="skipped"} 1'));
  assert.ok(lines.includes(`wsbench_process_cpu_seconds_total{${labels},role="server",process="0"} 1.25`));
  assert.ok(lines.includes(`wsbench_process_resident_memory_bytes{${labels},role="server",process="0"} 40000000`));
  assert.ok(
    !lines.some((l) => l.startsWith('wsbench_messages_total') && l.includes('server="bun"')),
    'a skipped cell measured nothing',
  );
  assert.ok(lines.includes(`wsbench_cell_window_elapsed_seconds{${labels}} 1`));
});

test('a shard labels every series and says which run it belongs to', () => {
  const state = new LiveState();
  state.onEvent({
    type: 'run-start',
    scenario: scenarioInfo(echo),
    cells: 1,
    repeat: 2,
    plan: [{ server: 'uws', client: 'ws', params: { connections: 1 }, skip: null }],
    shard: { index: 1, count: 3, runId: 'soak-7' },
  });
  const lines = renderMetrics(state).split('\n');
  assert.ok(lines.includes('wsbench_shard_info{shard="1",shards="3",run_id="soak-7"} 1'));
  assert.ok(
    lines.includes(
      'wsbench_cell_state{scenario="echo",server="uws",client="ws",connections="1",round="1",shard="1",state="pending"} 1',
    ),
    'round 2 of 2, on shard 1',
  );
  assert.ok(lines.filter((l) => l.startsWith('wsbench_') && !l.startsWith('#')).every((l) => l.includes('shard="1"')));
});

test('a cell run in stages says the stage it is in, as a label of its own; its counters keep the cell labels only', () => {
  const staged = { ...params, stages: '1s:100,2s:500' };
  const cell = { total: 1, round: 0, scenario: 'echo', server: 'uws', client: 'ws', params: staged };
  const tick = (n: number, stage: number) => ({
    tick: n,
    tMs: n * 1000,
    counters: { received: n * 100 },
    intervals: {},
    stage,
  });
  const state = new LiveState();
  const events: RunEvent[] = [
    {
      type: 'run-start',
      scenario: scenarioInfo(echo),
      cells: 1,
      repeat: 1,
      plan: [{ server: 'uws', client: 'ws', params: staged, skip: null }],
    },
    { type: 'cell-start', index: 0, ...cell, windowMs: 3000 },
    { type: 'window-open', index: 0 },
    { type: 'tick', index: 0, counters: { received: 100 }, progress: { process: 0, ticks: [tick(1, 0)] } },
  ];
  for (const event of events) state.onEvent(event);
  const stageLine = (text: string): string | undefined =>
    text.split('\n').find((l) => l.startsWith('wsbench_cell_stage{'));
  assert.match(stageLine(renderMetrics(state)) ?? '', /,stage="1",stage_target="100"\} 1$/);
  state.onEvent({ type: 'tick', index: 0, counters: { received: 200 }, progress: { process: 0, ticks: [tick(2, 1)] } });
  const text = renderMetrics(state);
  assert.match(stageLine(text) ?? '', /,stage="2",stage_target="500"\} 1$/);
  assert.ok(
    text
      .split('\n')
      .some((l) => l.startsWith('wsbench_messages_total{') && !l.includes('stage=') && l.endsWith(' 200')),
    'the counter has no stage label, and counts on across stages',
  );
});
