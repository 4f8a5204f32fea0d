/**
 * A schema-valid result whose stored histogram text is corrupt is refused by
 * `report`, `compare` and `merge` in one line naming the file, the cell and the
 * histogram, with exit 2: never an internal error with a stack trace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult, MeasuredCell } from '../src/shared/types/result-types.js';
import { runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

const INFO = scenarioInfo('echo', {
  parameters: { payload: { kind: 'size', description: 'made up', default: 32, sweepable: true } },
  metrics: {
    rttP50Ms: latencyMetric('rtt', 'p50'),
  },
  table: ['rttP50Ms'],
  charts: [{ kind: 'percentiles', histograms: ['rtt'] }],
});

function resultWith(corrupt: (c: MeasuredCell) => void): BenchResult {
  const cells = [32, 1024].map(
    (payload, i) =>
      cell('echo', {
        server: 'uws',
        client: 'ws',
        params: { payload },
        histograms: { rtt: exponentialHistogram(500, 300, i) },
        metrics: { rttP50Ms: 0.3 },
      }) as MeasuredCell,
  );
  corrupt(cells[1]!);
  return result(INFO, cells);
}

test('a corrupt histogram is one line naming the cell and the histogram, exit 2, in report, compare and merge', async () => {
  const dir = tempDir();
  const good = join(dir, 'good.json');
  writeFileSync(good, JSON.stringify(resultWith(() => undefined)));
  const flipped = join(dir, 'flipped.json');
  writeFileSync(
    flipped,
    JSON.stringify(
      resultWith((c) => {
        const text = c.measurements.histograms.rtt!.hdrBase64;
        c.measurements.histograms.rtt!.hdrBase64 = text.slice(0, 40) + (text[40] === 'A' ? 'B' : 'A') + text.slice(41);
      }),
    ),
  );
  const garbage = join(dir, 'garbage.json');
  writeFileSync(
    garbage,
    JSON.stringify(
      resultWith((c) => {
        c.measurements.serverHistograms.turn = { unit: 'us', hdrBase64: 'not a histogram' };
      }),
    ),
  );
  const outcomes = await Promise.all([
    runCli(['report', flipped, '--out', join(dir, 'r1')]),
    runCli(['compare', good, flipped]),
    runCli(['compare', garbage, good]),
    runCli(['merge', garbage, '--out', join(dir, 'merged.json')]),
  ]);
  const [report, compareNext, compareBase, merge] = outcomes;
  const flippedLine = new RegExp(
    `^wsbench: ${flipped}: cells\\[1\\] \\(echo uws x ws payload=1KiB\\): histogram "rtt" is corrupt \\([^)\\n]+\\)\\n$`,
  );
  assert.match(report!.stderr, flippedLine);
  assert.match(compareNext!.stderr, flippedLine);
  const garbageLine = new RegExp(
    `^wsbench: ${garbage}: cells\\[1\\] \\(echo uws x ws payload=1KiB\\): server histogram "turn" is corrupt \\([^)\\n]+\\)\\n$`,
  );
  assert.match(compareBase!.stderr, garbageLine);
  assert.match(merge!.stderr, garbageLine);
  for (const outcome of outcomes) {
    assert.equal(outcome.code, 2, outcome.stderr);
    assert.equal(outcome.stdout, '');
  }
});
