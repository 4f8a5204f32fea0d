/**
 * Each result file gets its own report folder (<name>.report/ beside <name>.json),
 * so results that share a folder never mix their charts; writing a report again
 * removes only the charts wsbench itself wrote there before and nobody changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifactsDirOf, writeArtifacts } from '../src/parent/report/html/artifacts.js';
import { buildCharts } from '../src/parent/charts/index.js';
import type { ChartRequest, MetricInfo } from '../src/shared/types/declaration-types.js';
import { tempDir } from './support.js';
import { cell, exponentialHistogram, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

const METRICS: Record<string, MetricInfo> = {
  rttP50Ms: latencyMetric('rtt', 'p50'),
};

function resultWith(charts: ChartRequest[]) {
  const info = scenarioInfo('echo', { metrics: METRICS, table: ['rttP50Ms'], charts });
  return result(info, [
    cell('echo', {
      server: 'ws',
      client: 'ws',
      histograms: { rtt: exponentialHistogram(2000, 200, 7) },
      metrics: { rttP50Ms: 0.2 },
    }),
  ]);
}

const both = resultWith([{ kind: 'percentiles', histograms: ['rtt'] }, { kind: 'resources' }]);
const resourcesOnly = resultWith([{ kind: 'resources' }]);

test('the report folder is named after the result file', () => {
  assert.equal(artifactsDirOf('/tmp/x/results.json'), '/tmp/x/results.report');
  assert.equal(artifactsDirOf('run-7.JSON'), 'run-7.report');
  assert.equal(artifactsDirOf('/tmp/noext'), '/tmp/noext.report');
});

test('two results in one folder get a report folder each, and nothing lands loose beside them', async () => {
  const dir = tempDir();
  await writeArtifacts(both, join(dir, 'a.json'));
  await writeArtifacts(resourcesOnly, join(dir, 'b.json'));
  assert.deepEqual(readdirSync(dir).sort(), ['a.report', 'b.report']);
  const chartsOf = (name: string): string[] =>
    readdirSync(join(dir, name, 'charts'))
      .filter((f) => f.endsWith('.svg'))
      .sort();
  assert.deepEqual(
    chartsOf('a.report'),
    buildCharts(both)
      .flatMap((s) => s.charts)
      .map((c) => `${c.name}.svg`)
      .sort(),
  );
  assert.deepEqual(
    chartsOf('b.report'),
    buildCharts(resourcesOnly)
      .flatMap((s) => s.charts)
      .map((c) => `${c.name}.svg`)
      .sort(),
  );
});

test('writing again removes the previous charts it did not rewrite, and never a file it did not write or that changed', async () => {
  const dir = tempDir();
  const path = join(dir, 'r.json');
  const written = await writeArtifacts(both, path);
  const folder = artifactsDirOf(path);
  const percentiles = written.filter((p) => p.includes('percentiles'));
  assert.ok(percentiles.length >= 2, 'the first write has the percentile chart');
  const [stale, edited] = percentiles as [string, string];
  writeFileSync(edited, 'edited by hand, keep me');
  writeFileSync(join(folder, 'notes.txt'), 'mine');
  writeFileSync(join(folder, 'charts', 'my-chart.svg'), '<svg/>');

  await writeArtifacts(resourcesOnly, path);
  assert.ok(!existsSync(stale), 'a stale chart wsbench wrote is gone');
  assert.ok(existsSync(edited), 'a chart changed since is kept');
  assert.ok(
    existsSync(join(folder, 'notes.txt')) && existsSync(join(folder, 'charts', 'my-chart.svg')),
    "the user's files are kept",
  );
  assert.ok(existsSync(join(folder, 'report.html')));
});

test('an explicit folder is used as given', async () => {
  const dir = tempDir();
  const written = await writeArtifacts(resourcesOnly, join(dir, 'r.json'), { outDir: join(dir, 'site') });
  assert.ok(written.includes(join(dir, 'site', 'report.html')));
});
