/**
 * A report folder is written without following a symlink inside it, and
 * wsbench deletes only files it can show it wrote there: a symlinked charts/
 * is refused in one line, and a forged .wsbench-files.json naming a file
 * outside the folder (by .., by an absolute path, through a symlinked folder,
 * or as a symlink itself) deletes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeArtifacts } from '../src/parent/report/html/artifacts.js';
import { runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

const INFO = scenarioInfo('echo', {
  metrics: {
    rttP50Ms: latencyMetric('rtt', 'p50'),
  },
  table: ['rttP50Ms'],
  charts: [{ kind: 'percentiles', histograms: ['rtt'] }],
});
const RESULT = result(INFO, [
  cell('echo', {
    server: 'ws',
    client: 'ws',
    histograms: { rtt: exponentialHistogram(500, 300, 1) },
    metrics: { rttP50Ms: 0.3 },
  }),
]);

test('a symlinked charts/ inside the report folder is refused, and nothing is written through it', async () => {
  const dir = tempDir();
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  const folder = join(dir, 'r.report');
  mkdirSync(folder);
  symlinkSync(elsewhere, join(folder, 'charts'));
  const path = join(dir, 'r.json');
  writeFileSync(path, JSON.stringify(RESULT));
  const outcome = await runCli(['report', path]);
  assert.equal(outcome.code, 2, outcome.stderr);
  assert.equal(
    outcome.stderr,
    `wsbench: ${join(folder, 'charts')} is a symbolic link: wsbench writes a report folder only through real folders\n`,
  );
  assert.deepEqual(readdirSync(elsewhere), []);
});

test('a forged file list naming files outside the folder deletes nothing', async () => {
  const dir = tempDir();
  const outside = join(dir, 'outside');
  mkdirSync(outside);
  const victims = ['a.svg', 'b.svg', 'c.svg', 'd.svg'].map((name) => {
    const file = join(outside, name);
    writeFileSync(file, `<svg>${name}</svg>`);
    return file;
  });
  const folder = join(dir, 'site');
  mkdirSync(join(folder, 'charts'), { recursive: true });
  symlinkSync(outside, join(folder, 'charts', 'linked'));
  symlinkSync(victims[3]!, join(folder, 'charts', 'd.svg'));
  const entry = (file: string) => {
    const stat = statSync(file);
    return { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
  };
  const forged = {
    '../outside/a.svg': entry(victims[0]!),
    [victims[1]!]: entry(victims[1]!),
    'charts/linked/c.svg': entry(victims[2]!),
    'charts/d.svg': entry(victims[3]!),
  };
  writeFileSync(join(folder, '.wsbench-files.json'), JSON.stringify(forged));
  await writeArtifacts(RESULT, join(dir, 'r.json'), { outDir: folder });
  for (const victim of victims) assert.ok(existsSync(victim), `${victim} is still there`);
  assert.ok(existsSync(join(folder, 'charts', 'echo-percentiles.svg')));
});
