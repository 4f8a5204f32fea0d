/**
 * The page keeps the curves of the cells that ended, for the next cells to be
 * read against, but only the last KEPT_CELLS of them, folded to a bounded
 * number of points: a long sweep stays bounded in memory and on the page.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsRegistry } from '../src/shared/measure/metrics.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import { KEPT_CELLS, LiveState } from '../src/parent/live/state.js';
import { dashboardSnapshot, OwnProcess } from '../src/parent/live/dashboard-snapshot.js';
import echo from '../scenarios/echo.js';

test(`the last ${KEPT_CELLS} cells that ended keep their curves, folded, and the page draws them with the running one`, () => {
  const cells = KEPT_CELLS + 2;
  const plan = Array.from({ length: cells }, (_, i) => ({
    server: 'ws',
    client: 'ws',
    params: { connections: i + 1 },
    skip: null,
  }));
  const state = new LiveState();
  state.onEvent({ type: 'run-start', scenario: scenarioInfo(echo), cells, repeat: 1, plan });
  for (let index = 0; index < cells; index++) {
    const identity = {
      total: cells,
      round: 0,
      scenario: 'echo',
      server: 'ws',
      client: 'ws',
      params: plan[index]!.params,
    };
    state.onEvent({ type: 'cell-start', index, ...identity, windowMs: 1000 });
    state.onEvent({ type: 'window-open', index });
    const client = new MetricsRegistry();
    // 200 ticks: more than a kept series holds.
    for (let tick = 1; tick <= 200; tick++) {
      client.histogram('rtt').recordUs(20 + index);
      client.counter('received').add(10);
      const progress = {
        process: 0,
        ticks: [{ tick, tMs: tick * 100, counters: client.counterValues(), intervals: client.takeIntervals() }],
      };
      state.onEvent({ type: 'tick', index, counters: client.counterValues(), progress });
    }
    state.onEvent({ type: 'cell-end', index, ...identity, status: 'ok', reason: null });
  }
  const kept = state.cells.filter((c) => c.kept !== null);
  // Trimmed when a cell starts: the last cell (still the current one) and the KEPT_CELLS that ended before it.
  assert.equal(kept.length, KEPT_CELLS + 1);
  assert.deepEqual(
    kept.map((c) => c.index),
    Array.from({ length: KEPT_CELLS + 1 }, (_, i) => cells - KEPT_CELLS - 1 + i),
  );
  for (const cell of kept)
    assert.ok(cell.kept!.timeSeries!.points.length <= 150, `${cell.kept!.timeSeries!.points.length} points`);
  const snapshot = dashboardSnapshot(state, new OwnProcess(), Date.now());
  const percentiles = snapshot.charts.find((c) => c.name.startsWith('percentiles'))!;
  const drawn = new Set(
    (percentiles.spec as { data: { values: Array<{ cell: string }> } }).data.values.map((v) => v.cell),
  );
  assert.equal(drawn.size, KEPT_CELLS + 1, [...drawn].join(', '));
});
