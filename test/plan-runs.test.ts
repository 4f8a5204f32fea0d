/**
 * `wsbench run --config plan.yaml` runs what the plan says, as the same
 * command line would; a flag given on the command line overrides the plan's
 * key (a repeatable one's list is replaced); the result records the plan as
 * it ran. A JSON plan works the same. Short loopback runs: echo, ws x ws.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResultFile } from '../src/parent/results/result-file.js';
import { runCli, tempDir } from './support.js';

test('a YAML plan runs; the command line overrides its keys; the result records the plan as it ran', {
  timeout: 120_000,
}, async () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'plan.yaml'),
    [
      '# a short loopback run',
      'scenario: echo',
      'servers: ws',
      'clients: [ws]',
      'connections: 2',
      'duration: 400ms',
      'out: from-plan.json',
      'format: [markdown=plan.md]',
      'no-journal: true',
      '',
    ].join('\n'),
  );
  const outcome = await runCli(['run', '--config', 'plan.yaml', '--connections', '3', '--format', 'csv=cli.csv'], {
    cwd: dir,
  });
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.match(outcome.stderr, /^csv: cli\.csv$/m, "the command line's --format replaced the plan's");
  assert.doesNotMatch(outcome.stderr, /plan\.md/);

  const result = readResultFile(join(dir, 'from-plan.json'));
  assert.deepEqual(
    result.cells.map((c) => [c.server, c.client, c.params.connections, c.params.duration, c.status]),
    [['ws', 'ws', 3, 400, 'ok']],
  );
  assert.deepEqual(result.plan, {
    path: 'plan.yaml',
    contents: {
      scenario: 'echo',
      servers: 'ws',
      clients: ['ws'],
      connections: '3',
      duration: '400ms',
      out: 'from-plan.json',
      format: ['csv=cli.csv'],
      'no-journal': true,
    },
    commandLine: ['connections', 'format'],
  });
});

test('a JSON plan runs too, the scenario named on the command line', { timeout: 120_000 }, async () => {
  const dir = tempDir();
  const plan = {
    servers: 'ws',
    clients: 'ws',
    connections: 1,
    duration: '300ms',
    out: 'json-plan.json',
    'no-journal': true,
    format: 'json',
  };
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  const outcome = await runCli(['run', 'echo', '--config', 'plan.json'], { cwd: dir });
  assert.equal(outcome.code, 0, outcome.stderr);
  const printed = JSON.parse(outcome.stdout) as {
    cells: Array<{ status: string }>;
    plan?: { contents: Record<string, unknown>; commandLine: string[] };
  };
  assert.deepEqual(
    printed.cells.map((c) => c.status),
    ['ok'],
    '--format json from the plan put the result on stdout',
  );
  assert.deepEqual(printed.plan?.contents, { scenario: 'echo', ...plan });
  assert.deepEqual(printed.plan?.commandLine, ['scenario']);
  assert.deepEqual(readResultFile(join(dir, 'json-plan.json')).plan, printed.plan);
});
