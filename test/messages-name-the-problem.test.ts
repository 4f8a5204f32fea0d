/**
 * A refusal names the real problem: a missing file "does not exist" (not "is
 * not a journal"), a bad target name is blamed on the name (not on the URL
 * after it), a bound that comes from another flag names that flag, and an
 * empty --target-pid (what "$(pgrep ...)" gives when nothing matches) says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli, tempDir, usageErrorLine } from './support.js';

const dir = tempDir();
const missing = join(dir, 'gone.json.journal');

const CASES: Array<[string, string[], string]> = [
  ['recover of a file that does not exist', ['recover', missing], `${missing} does not exist`],
  [
    'a --target name holding "=" and markup',
    ['run', 'echo', '--target', '<b>x=y</b>=ws://127.0.0.1:9/'],
    '--target: "<b>x=y</b>" is not a name: use letters, digits and . _ - : [ ]',
  ],
  [
    'capacity --max below the default --start',
    ['capacity', 'echo', '--slo', 'p99<500ms', '--max', '40'],
    '--max: 40 is below --start (100, its default): give a smaller --start, or a --max of 100 or more',
  ],
  [
    'capacity --max below the --start given',
    ['capacity', 'echo', '--slo', 'p99<500ms', '--start', '50', '--max', '40'],
    '--max: 40 is below --start (50): give a smaller --start, or a --max of 50 or more',
  ],
  [
    'an empty --target-pid',
    ['run', 'echo', '--target', 'ws://127.0.0.1:9/', '--target-pid', ''],
    '--target-pid: empty: give the process id of the --target\'s server (a "$(pgrep ...)" that matched no process gives an empty one)',
  ],
  [
    'a --target-pid of two pids',
    ['run', 'echo', '--target', 'ws://127.0.0.1:9/', '--target-pid', '12\n34'],
    '--target-pid: "12 34" is more than one process id: give one (pgrep -o gives the oldest match)',
  ],
];

for (const [what, args, line] of CASES) {
  test(`${what}: one line that names it`, async () => {
    assert.equal(usageErrorLine(await runCli(args, { cwd: dir })), `wsbench: ${line}`);
  });
}
