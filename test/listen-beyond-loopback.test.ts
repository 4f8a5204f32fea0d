/**
 * A live view bound beyond loopback says so: one warning line on stderr that
 * the run is visible to the network; one bound to loopback says nothing. The
 * run happens in a network namespace of its own (only its loopback is up), so
 * binding every address exposes nothing beyond this test. Skipped, with the
 * reason, where such a namespace cannot be made.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, runCli, tempDir, runArgs } from './support.js';

/** `unshare -n` needs root (or user namespaces); the shell brings the namespace's loopback up, then becomes wsbench. */
const IN_NAMESPACE = ['unshare', '--net', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, BIN];

function namespaceUnavailable(): string | null {
  const probe = spawnSync(IN_NAMESPACE[0]!, [...IN_NAMESPACE.slice(1, 5), process.execPath, '-e', ''], {
    encoding: 'utf8',
  });
  return probe.status === 0
    ? null
    : `cannot make a network namespace here: ${(probe.stderr || probe.error?.message || '').trim().split('\n')[0]}`;
}

const unavailable = namespaceUnavailable();

test('a view bound to every address warns that the run is visible to the network; one on loopback does not', {
  skip: unavailable ?? false,
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(
    runArgs(
      'echo',
      'ws',
      'ws',
      '--duration',
      '1s',
      '--dashboard',
      '0.0.0.0:0',
      '--metrics-listen',
      '127.0.0.1:0',
      '--metrics-linger',
      '0s',
      '--out',
      out,
    ),
    { command: IN_NAMESPACE },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const warnings = outcome.stderr.split('\n').filter((line) => line.startsWith('warning:'));
  assert.equal(warnings.length, 1, outcome.stderr);
  assert.match(
    warnings[0]!,
    /^warning: --dashboard listens on 0\.0\.0\.0:\d+, beyond loopback: the run is visible to the network$/,
  );
});
