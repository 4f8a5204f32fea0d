/**
 * The README's sample of the quick suite is today's output: a fresh run of the
 * quick suite's settings (fewer pairs, the same preset and rounds) prints the
 * same description, parameters, table header, legends and sections, in the
 * same order, and the README's rows have the table's columns, each number
 * with its interval. The numbers themselves are the machine's and are never
 * compared. The paragraph under it says where it ran, how loaded the machine
 * was and how long it took, as scripts/readme-sample.mjs writes it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, runCli, tempDir } from './support.js';
import { readmeSample, sampleText, shapeProblems, withSample, type SampleFacts } from './readme-sample.js';

const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

test("the README's sample has the shape of today's quick-suite output", { timeout: 180_000 }, async () => {
  const dir = tempDir();
  // The quick suite's own settings (bare `npx wsbench` is `run echo --preset quick --repeat 3 --until-decided --budget 1m`),
  // on two pairs and two n/a, its first rounds only: the looks add a line above the table, which no anchor reads.
  const fresh = await runCli(
    [
      'run',
      'echo',
      '--preset',
      'quick',
      '--repeat',
      '3',
      '--servers',
      'ws,socketio',
      '--clients',
      'ws,socketio',
      '--out',
      join(dir, 'r.json'),
    ],
    { cwd: dir },
  );
  assert.equal(fresh.code, 0, fresh.stderr);
  const { block } = readmeSample(README);
  assert.deepEqual(
    shapeProblems(block, fresh.stdout.trimEnd().split('\n')),
    [],
    'refresh the sample: npm run build && node scripts/readme-sample.mjs --write',
  );
  assert.ok(
    block.some((line) => line.startsWith('n/a ')),
    'the n/a pairs are in the sample',
  );
});

test('the paragraph under the sample says the machine, its load average, the time it took and the stacks', () => {
  const { paragraph } = readmeSample(README);
  const text = paragraph.replace(/\s+/g, ' ');
  assert.match(text, /^Printed by `node scripts\/readme-sample\.mjs` /);
  assert.match(text, / in \d+ s with charts and report, on a \d+-vCPU, \d+ GiB /);
  assert.match(text, / Node v\d+\.\d+\.\d+, loopback only; /);
  assert.match(text, / load average \d+\.\d\d when it started and \d+\.\d\d when it ended /);
  assert.match(text, / Stacks: ws \d/);
});

test("what scripts/readme-sample.mjs writes is what the README's sample is read as", () => {
  const stdout = 'echo: a line\nserver  client  status\n';
  const facts: SampleFacts = {
    result: {
      environment: {
        node: 'v20.0.0',
        osName: 'Debian',
        cpuModel: 'a CPU',
        cpuCores: 2,
        totalMemoryBytes: 8 * 1024 ** 3,
        stacks: [
          { name: 'ws', availability: { available: true, version: '8.0.0', build: { binary: 'bufferutil' } } },
          { name: 'ws', availability: { available: true, version: '8.0.0' } },
          { name: 'bun', availability: { available: false } },
        ],
      },
    },
    elapsedMs: 52_400,
    loadBefore: 1.5,
    loadAfter: 2.25,
  };
  const { block, paragraph } = readmeSample(withSample(README, sampleText(stdout, facts)));
  assert.deepEqual(block, ['echo: a line', 'server  client  status']);
  assert.equal(
    paragraph.replace(/\s+/g, ' '),
    'Printed by `node scripts/readme-sample.mjs` (which runs bare `npx wsbench` and rewrites this sample), in 52 s with charts and report, on a 2-vCPU, 8 GiB Debian machine whose CPU reports as "a CPU", Node v20.0.0, loopback only; load average 1.50 when it started and 2.25 when it ended (1 minute; other work shared the machine). Stacks: ws 8.0.0 (bufferutil).',
  );
});
