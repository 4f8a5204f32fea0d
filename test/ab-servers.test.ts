/**
 * A/B inside one run: two --server-cmd builds of a server measured with
 * --repeat interleave their rounds (base, new, base, new, ...), and
 * `compare FILE --servers base,new` pairs their rounds one by one. The same
 * server under two names reads no regression; a bad --servers is exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli, tempDir, runArgs } from './support.js';
import { fixtureCommand, newTag, taggedProcesses } from './foreign-processes.js';

test('--server-cmd base=... --server-cmd new=... --repeat 3: rounds interleave, and compare --servers pairs them', {
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'ab.json');
  const tag = newTag();
  const measured = await runCli([
    'run',
    'echo',
    '--server-cmd',
    `base=${fixtureCommand('echo', tag)}`,
    '--server-cmd',
    `new=${fixtureCommand('echo', tag)}`,
    '--clients',
    'ws',
    '--repeat',
    '3',
    '--duration',
    '300ms',
    '--out',
    out,
  ]);
  assert.equal(measured.code, 0, measured.stderr);
  const started = [...measured.stderr.matchAll(/round (\d)\/3 echo (base|new) x ws[^:]*: started/g)].map(
    (m) => `${m[1]}${m[2]}`,
  );
  assert.deepEqual(started, ['1base', '1new', '2base', '2new', '3base', '3new']);
  assert.deepEqual(taggedProcesses(tag), [], 'every server stopped with its cell');

  const compared = await runCli(['compare', out, '--servers', 'base,new', '--fail-on-regression', '50']);
  assert.equal(compared.code, 0, compared.stdout + compared.stderr);
  assert.match(compared.stdout, /^base: base in .*ab\.json$/m);
  assert.match(
    compared.stdout,
    /^echo base -> new x ws\s+p50 ms\s.*paired rounds, t\(2\); paired estimate [-+][\d.]+%, unpaired \[[-+][\d.]+%, [-+][\d.]+%\](; the two tests disagree)?\s+(unchanged|inconclusive)$/m,
  );
  assert.doesNotMatch(compared.stdout, /\sREGRESSED$/m);

  const [both, one, same] = await Promise.all([
    runCli(['compare', out, out, '--servers', 'base,new']),
    runCli(['compare', out, '--servers', 'base']),
    runCli(['compare', out, '--servers', 'base,ghost']),
  ]);
  assert.deepEqual(
    [both.code, both.stderr],
    [2, `wsbench: --servers compares two servers of one result: give one file, not ${out} too\n`],
  );
  assert.deepEqual(
    [one.code, one.stderr],
    [2, 'wsbench: --servers: "base" is not two different server names, base and new, such as base,new\n'],
  );
  assert.deepEqual(
    [same.code, same.stderr],
    [2, `wsbench: ${out} has no cell of base and ghost with the same client and parameters\n`],
  );
});

test('--inconclusive: fail exits 3 when nothing regressed but the data cannot tell; it needs --fail-on-regression', async () => {
  const out = join(tempDir(), 'one.json');
  const measured = await runCli(runArgs('echo', 'ws', 'ws', '--duration', '300ms', '--out', out));
  assert.equal(measured.code, 0, measured.stderr);
  // One short window against itself with a 0% margin: its run-to-run band holds 0 and reaches past 0%.
  const [fails, passes, alone, bad] = await Promise.all([
    runCli(['compare', out, out, '--fail-on-regression', '0', '--inconclusive', 'fail']),
    runCli(['compare', out, out, '--fail-on-regression', '0']),
    runCli(['compare', out, out, '--inconclusive', 'fail']),
    runCli(['compare', out, out, '--fail-on-regression', '5', '--inconclusive', 'maybe']),
  ]);
  assert.equal(fails.code, 3, fails.stdout + fails.stderr);
  assert.match(fails.stderr, /^inconclusive: echo ws x ws: p50 ms \+0\.0%$/m);
  assert.match(
    fails.stderr,
    /^gate failed at --fail-on-regression 0% with --inconclusive fail: none regressed, but \d+ changes? in 1 cell compared inconclusive/m,
  );
  assert.equal(passes.code, 0, passes.stderr);
  assert.match(passes.stderr, /^gate passed at --fail-on-regression 0%: .*; \d+ changes? inconclusive/m);
  assert.deepEqual(
    [alone.code, alone.stderr],
    [2, 'wsbench: --inconclusive fail: give --fail-on-regression too (it is the gate that fails)\n'],
  );
  assert.deepEqual([bad.code, bad.stderr], [2, 'wsbench: --inconclusive: "maybe" is not one of pass, fail\n']);
});
