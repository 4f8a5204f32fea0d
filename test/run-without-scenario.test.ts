import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtInScenarios } from '../src/child/scenario-loader.js';
import { runCli, usageErrorLine } from './support.js';

// A bare `wsbench run` used to run echo's whole matrix for minutes without saying so.
for (const command of ['run', 'capacity']) {
  test(`${command} without a scenario names the scenarios in one line and exits 2, running nothing`, async () => {
    const outcome = await runCli([command, '--servers', 'ws']);
    const line = usageErrorLine(outcome);
    assert.match(line, new RegExp(`^wsbench: ${command}: name a scenario \\(`));
    for (const name of builtInScenarios()) assert.ok(line.includes(name), `names ${name}`);
  });

  test(`${command} --help without a scenario lists the shared options and every scenario, exit 0`, async () => {
    const outcome = await runCli([command, '--help']);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.match(outcome.stdout, new RegExp(`^Usage: wsbench ${command} <scenario> \\[options\\]`));
    for (const flag of ['--servers', '--clients', '--out', '--target', '--server-cmd', '--duration'])
      assert.ok(outcome.stdout.includes(flag), `lists ${flag}`);
    for (const name of builtInScenarios())
      assert.match(outcome.stdout, new RegExp(`^  ${name} +\\S`, 'm'), `lists ${name}`);
    assert.ok(outcome.stdout.includes(`wsbench ${command} <scenario> --help`), 'says where the own parameters are');
    // No scenario's own parameter leaks into the shared help.
    assert.ok(!outcome.stdout.includes('--payload'), "echo's --payload is not a shared option");
  });
}
