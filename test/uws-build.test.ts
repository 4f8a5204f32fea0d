import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { isNativeFunction } from '../src/child/servers/uws-build.js';
import { runCli, tempDir } from './support.js';
import type { BenchResult } from '../src/parent/index.js';
import type { StackInfo } from '../src/shared/types/result-types.js';

async function listStacks(env: NodeJS.ProcessEnv = {}): Promise<StackInfo[]> {
  const outcome = await runCli(['list', '--json'], { env });
  assert.equal(outcome.code, 0, outcome.stderr);
  return (JSON.parse(outcome.stdout) as { stacks: StackInfo[] }).stacks;
}

test('a C++ binding and a JavaScript function are told apart', () => {
  assert.equal(isNativeFunction(Math.max), true);
  assert.equal(
    isNativeFunction(function App() {}),
    false,
  );
  assert.equal(isNativeFunction('function () { [native code] }'), false);
});

test('the native uWebSockets.js build is recognised and recorded with its binary', async () => {
  const uws = (await listStacks()).find((s) => s.role === 'server' && s.name === 'uws')!;
  assert.equal(uws.availability.available, true);
  if (!uws.availability.available) return;
  assert.equal(uws.availability.build?.native, true);
  assert.equal(uws.availability.build?.packageName, '@trufflesuite/uws-js-unofficial');
  assert.match(uws.availability.build?.binary ?? '', /^uws_linux_x64_\d+\.node$/);
});

test("the package's silent JavaScript fallback is refused, not reported as uWebSockets.js", async () => {
  // UWS_USE_FALLBACK makes the trufflesuite package load its ws-based imitation, as a failed binary would.
  const env = { UWS_USE_FALLBACK: '1' };
  const uws = (await listStacks(env)).find((s) => s.role === 'server' && s.name === 'uws')!;
  assert.equal(uws.availability.available, false);
  if (uws.availability.available) return;
  assert.match(
    uws.availability.reason,
    /^native uWebSockets.js binary did not load; @trufflesuite\/uws-js-unofficial fell back to its JavaScript \(ws-based\) implementation/,
  );

  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(
    ['run', 'echo', '--servers', 'uws,ws', '--clients', 'ws', '--duration', '200ms', '--out', out],
    { env },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const [uwsCell, wsCell] = result.cells;
  assert.equal(uwsCell?.status, 'skipped');
  assert.match(uwsCell.reason, /^server uws unavailable: native uWebSockets.js binary did not load/);
  assert.equal('metrics' in uwsCell, false, 'no number is reported for the fallback');
  assert.equal(wsCell?.status, 'ok');
});
