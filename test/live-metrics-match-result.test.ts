/**
 * The library's live views beside run(): once the run is over, /metrics holds
 * for every cell the result's own numbers (every client counter, and the
 * latency sample count), since both are built from the same reports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveViews, run, isMeasured } from '../src/parent/index.js';

test("after the run, /metrics holds each cell's counters and latency count as the result has them", {
  timeout: 120_000,
}, async () => {
  const views = new LiveViews(
    { dashboard: null, metrics: { host: '127.0.0.1', port: 0 }, metricsLingerMs: 0 },
    (line) => assert.fail(line),
  );
  await views.listen();
  try {
    const result = await run({
      scenario: 'echo',
      servers: ['ws', 'uws'],
      clients: ['ws'],
      params: { duration: 800, connections: 2 },
      onEvent: views.onEvent,
    });
    const text = await (await fetch(views.metricsUrl!)).text();
    for (const cell of result.cells) {
      assert.ok(isMeasured(cell), `${cell.server}: ${cell.status}`);
      const labels = `scenario="echo",server="${cell.server}",client="ws",connections="2"`;
      const series = text.split('\n').filter((line) => line.startsWith('wsbench_') && line.includes(labels));
      const value = (family: string, extra = ''): number | undefined => {
        const line = series.find((l) => l.startsWith(`${family}{`) && l.includes(extra));
        return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
      };
      for (const [counter, expected] of Object.entries(cell.measurements.counters)) {
        const found = series.filter(
          (l) =>
            l.includes(`counter="${counter}"`) ||
            (counter === 'connectionsOpened' && l.startsWith('wsbench_connections_opened_total')),
        );
        assert.equal(found.length, 1, `${cell.server} ${counter}: ${found.join(' | ')}`);
        assert.equal(Number(found[0]!.slice(found[0]!.lastIndexOf(' ') + 1)), expected, `${cell.server} ${counter}`);
      }
      assert.equal(
        value('wsbench_latency_seconds_count', 'histogram="rtt"'),
        cell.measurements.latency.rtt!.count,
        `${cell.server} rtt samples`,
      );
      assert.equal(value('wsbench_cell_state', 'state="ok"'), 1);
    }
  } finally {
    await views.close();
  }
});
