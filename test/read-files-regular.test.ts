/**
 * Every file wsbench reads from a path it was given is a regular file of
 * bounded size, judged on the open descriptor before a byte is read: a FIFO
 * (whose open would wait for a writer), a device (/dev/zero never ends, and
 * once took --ca to std::bad_alloc), a folder, or a file past the limit of
 * its kind (docs/running.md) is one line naming the path, exit 2, at once.
 * Each command runs as the real bin; a hang is killed at the deadline and
 * fails its case.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, runCli, tempDir, usageErrorLine } from './support.js';
import { READ_LIMITS } from '../src/shared/safe-files.js';

/** Far above a refusal's startup on a busy machine; a hang meets it. */
const DEADLINE_MS = 30_000;
const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'echo-run.json');

const dir = tempDir();
const fifo = join(dir, 'fifo.json');
execFileSync('mkfifo', [fifo]);
const fifoPlan = join(dir, 'fifo.yaml');
execFileSync('mkfifo', [fifoPlan]);
const zero = join(dir, 'zero.json');
symlinkSync('/dev/zero', zero);
const zeroPlan = join(dir, 'zero.yaml');
symlinkSync('/dev/zero', zeroPlan);
const folder = join(dir, 'folder.journal');
mkdirSync(folder);
/** Sparse files one byte past each limit: they take no disk. */
const sparse = (name: string, size: number): string => {
  const path = join(dir, name);
  writeFileSync(path, '');
  truncateSync(path, size);
  return path;
};
const bigResult = sparse('big.json', READ_LIMITS.result + 1);
const bigJournal = sparse('big.journal', READ_LIMITS.journal + 1);
const bigPem = sparse('big.pem', READ_LIMITS.pem + 1);
const bigPlan = sparse('big.yaml', READ_LIMITS.plan + 1);
const result = join(dir, 'r.json');
copyFileSync(FIXTURE, result);
const out = join(dir, 'never-written.json');
const runTls = (ca: string): string[] => [
  'run',
  'echo',
  '--target',
  'wss://127.0.0.1:9/',
  '--ca',
  ca,
  '--duration',
  '1s',
  '--out',
  out,
];

const fifoLine = `${fifo} is a FIFO, not a regular file`;
const MiB = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
const tooBig = (path: string, size: number, what: string, limit: number): string =>
  `${path} is ${MiB(size)}, more than ${what} may be (${MiB(limit)}: see docs/running.md)`;

/** [what, argv, the line after "wsbench: "]. */
const CASES: Array<[string, string[], string]> = [
  ['report of a FIFO', ['report', fifo], fifoLine],
  ['compare with a FIFO as base', ['compare', fifo, result], fifoLine],
  ['compare with a FIFO as new', ['compare', result, fifo], fifoLine],
  ['merge of a FIFO', ['merge', fifo, '--out', out], fifoLine],
  ['recover of a FIFO', ['recover', fifo], fifoLine],
  ['--ca a FIFO', runTls(fifo), `--ca: ${fifoLine}`],
  ['a scenario path that is a FIFO', ['run', fifo, '--out', out], fifoLine],
  ['report of a symlink to /dev/zero', ['report', zero], `${zero} is a device, not a regular file`],
  ['--ca /dev/zero', runTls('/dev/zero'), '--ca: /dev/zero is a device, not a regular file'],
  ['recover of a folder', ['recover', folder], `${folder} is a folder, not a regular file`],
  [
    'report of a result file past its limit',
    ['report', bigResult],
    tooBig(bigResult, READ_LIMITS.result + 1, 'a result file', READ_LIMITS.result),
  ],
  [
    'recover of a journal past its limit',
    ['recover', bigJournal],
    tooBig(bigJournal, READ_LIMITS.journal + 1, 'a journal', READ_LIMITS.journal),
  ],
  [
    '--ca past the PEM limit',
    runTls(bigPem),
    `--ca: ${tooBig(bigPem, READ_LIMITS.pem + 1, 'a PEM file', READ_LIMITS.pem)}`,
  ],
  [
    'a test plan (--config) that is a FIFO',
    ['run', '--config', fifoPlan],
    `--config: ${fifoPlan} is a FIFO, not a regular file`,
  ],
  ['compare --config a FIFO', ['compare', '--config', fifoPlan], `--config: ${fifoPlan} is a FIFO, not a regular file`],
  [
    '--config a symlink to /dev/zero',
    ['capacity', '--config', zeroPlan],
    `--config: ${zeroPlan} is a device, not a regular file`,
  ],
  [
    '--config past the plan limit',
    ['run', 'echo', '--config', bigPlan],
    `--config: ${tooBig(bigPlan, READ_LIMITS.plan + 1, 'a test plan', READ_LIMITS.plan)}`,
  ],
];

test('each special or oversized file is one line, exit 2, at once (no hang, no crash)', async () => {
  const outcomes = await Promise.all(CASES.map(([, args]) => runCli(args, { cwd: dir, timeoutMs: DEADLINE_MS })));
  const wrong = CASES.flatMap(([what, , line], i) => {
    const outcome = outcomes[i]!;
    if (outcome.signal !== null) return [`${what}: killed at the ${DEADLINE_MS / 1000} s deadline (it hung)`];
    try {
      assert.equal(usageErrorLine(outcome), `wsbench: ${line}`);
      return [];
    } catch (error) {
      return [
        `${what}: ${(error as Error).message.split('\n')[0]} (exit ${outcome.code}: ${outcome.stderr.trim().split('\n')[0]})`,
      ];
    }
  });
  assert.deepEqual(wrong, []);
});
