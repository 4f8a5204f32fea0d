/**
 * Under npx, npm runs wsbench through `sh -c`, and a SIGTERM to npm kills only
 * that shell: wsbench must take its parent's death as the interrupt, finish
 * the cell and write its results within seconds, instead of running the rest
 * of its cells as an orphan. Outside npm, a lost parent changes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readResultFile } from '../src/parent/results/result-file.js';
import { BIN, tempDir } from './support.js';
import { groupEmpties, startCli } from './live-cli.js';

/** wsbench under a shell that does not exec it, as npm starts it. */
function underShell(args: string[], env: NodeJS.ProcessEnv) {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  return startCli([], { command: ['/bin/sh', '-c', `${quoted}; :`], env, ownProcessGroup: true });
}

test('started by npx: the shell between npm and wsbench dies, wsbench writes what it measured and exits', async () => {
  const out = join(tempDir(), 'r.json');
  const cli = underShell(['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '30s', '--out', out], {
    npm_lifecycle_event: 'npx',
  });
  await cli.waitForStderr(/: started/);
  await new Promise((resolve) => setTimeout(resolve, 2000)); // into the window
  const killedAt = Date.now();
  process.kill(cli.pid, 'SIGKILL'); // what dash does on the SIGTERM npm forwards: it dies
  await cli.finished; // stdout and stderr close when wsbench, which holds them too, exits
  const tookMs = Date.now() - killedAt;

  assert.ok(tookMs < 20_000, `wsbench took ${tookMs} ms to stop (the cell had 30 s to go)`);
  assert.match(cli.stderr(), /npx ended \(it was signalled\); stopping as on Ctrl\+C/);
  const result = readResultFile(out);
  assert.equal(result.interrupted, true);
  assert.deepEqual(await groupEmpties(cli.pid, 5000), [], 'no process left');
});

test('not started by npm: losing the parent does not stop the run', async () => {
  const out = join(tempDir(), 'r.json');
  const env = { npm_lifecycle_event: undefined } as unknown as NodeJS.ProcessEnv;
  const cli = underShell(['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '2s', '--out', out], env);
  await cli.waitForStderr(/: started/);
  process.kill(cli.pid, 'SIGKILL');
  await cli.finished;
  const result = readResultFile(out);
  assert.equal(result.interrupted, false);
  assert.equal(result.cells[0]?.status, 'ok');
  assert.deepEqual(await groupEmpties(cli.pid, 5000), []);
});
