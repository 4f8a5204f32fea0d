/**
 * The README's quick start works as written. Each command of its fenced `sh`
 * block has a check here, and a command without one fails the first test, so
 * the block cannot grow a command that nothing checks. What each check runs,
 * and what it cannot run inside `npm test`, is in its test's name.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { basename, delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT, tempDir } from './support.js';
import { startCli, type LiveCli } from './live-cli.js';
import { fencedBlocks } from '../tools/markdown.js';
import { suiteFiles } from './suite-files.js';
import { asCloneRoot, unignoredFiles } from './clone-status.js';
import { binNodeFlags } from '../bench/bin-node-flags.js';
import type { BenchResult } from '../src/parent/index.js';

const CHECKED = ['npm ci', 'npx wsbench', 'npm test'];
/** The quick suite's first cell takes ~3 s alone; the deadline leaves room for a busy machine. */
const FIRST_CELL_DEADLINE_MS = 25_000;

/** The commands of the quick start's `sh` block: comments dropped, `a && b` taken apart. */
function quickStartCommands(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Quick start\n');
  assert.ok(start >= 0, 'the README has a "## Quick start" section');
  const end = readme.indexOf('\n## ', start + 1);
  const block = fencedBlocks(readme.slice(start, end === -1 ? undefined : end)).find((fenced) => fenced.info === 'sh');
  assert.ok(block, 'the quick start has a ```sh block');
  return block.body
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .flatMap((line) => line.split('&&'))
    .map((command) => command.trim())
    .filter((command) => command !== '');
}

const packageJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

test(`the quick start's sh block holds only commands checked here (${CHECKED.join(', ')})`, () => {
  const commands = quickStartCommands();
  assert.deepEqual(
    commands.filter((command) => !CHECKED.includes(command)),
    [],
  );
  assert.deepEqual([...new Set(commands)].sort(), [...CHECKED].sort());
});

test('quick start, `npm ci` (not run: it installs from the registry): package-lock.json holds the dependencies of package.json, as npm ci requires', () => {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<
      string,
      {
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
        optionalDependencies?: Record<string, string>;
      }
    >;
  };
  const root = lock.packages[''];
  assert.ok(root, 'package-lock.json describes the root package');
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies'] as const) {
    assert.deepEqual(
      root[field] ?? {},
      packageJson[field] ?? {},
      `${field} of package-lock.json and package.json differ`,
    );
  }
});

test('quick start, `npm test` (not run: it is this suite): the test script runs the compiled tests, this file among them', () => {
  const script = packageJson.scripts.test;
  assert.ok(script, 'package.json has a test script');
  // run-suite.js runs node --test over the *.test.js files of its folder, as suiteFiles() sorts them.
  assert.match(
    script,
    /(^|&& )node dist\/test\/run-suite\.js$/,
    `the test script runs the compiled tests through dist/test/run-suite.js: ${script}`,
  );
  const thisFile = relative(REPO_ROOT, fileURLToPath(import.meta.url));
  assert.match(thisFile, /^dist\/test\/[^/]+\.test\.js$/);
  const { together, alone } = suiteFiles(dirname(fileURLToPath(import.meta.url)));
  assert.ok([...together, ...alone].includes(basename(thisFile)), `${thisFile} is among the files run-suite runs`);
});

let quickSuite: LiveCli | undefined;
after(() => {
  // Only on a failed test is it still running: its whole group goes.
  if (quickSuite && quickSuite.child.exitCode === null) process.kill(-quickSuite.pid, 'SIGKILL');
});

test("quick start, `npx wsbench`: the package's bin with no arguments runs the quick suite, checked through its first measured cell and then interrupted as Ctrl+C does (the rest of the ~1 min suite is not run); what it writes, a clone's .gitignore covers", async () => {
  // npx in the clone runs the bin that package.json names; npx itself is not run (it may install the folder first).
  assert.equal(packageJson.name, 'wsbench');
  assert.equal(packageJson.bin.wsbench, 'bin/wsbench.js');
  const folder = tempDir();
  // The folder stands for the clone's root: what the run writes there must be covered by the clone's .gitignore.
  asCloneRoot(folder);
  // The bin is executed as npx executes it, by its `#!/usr/bin/env -S node ...` line, with this Node first on PATH.
  const env = { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
  quickSuite = startCli([], {
    cwd: folder,
    env,
    command: [join(REPO_ROOT, packageJson.bin.wsbench)],
    ownProcessGroup: true,
    timeoutMs: 60_000,
  });
  await quickSuite.waitForStderr(/: ok in /, FIRST_CELL_DEADLINE_MS);
  // Mid-run: the result's lock and journal are there.
  assert.deepEqual(unignoredFiles(folder), [], "what the run keeps while it runs shows in a clone's `git status`");
  const orchestrator = readFileSync(`/proc/${quickSuite.pid}/cmdline`, 'utf8').split('\0');
  assert.deepEqual(
    orchestrator.slice(1, 1 + binNodeFlags(join(REPO_ROOT, 'bin/wsbench.js')).length),
    binNodeFlags(join(REPO_ROOT, 'bin/wsbench.js')),
    `the shebang's Node flags reach the orchestrator: ${orchestrator.join(' ')}`,
  );
  process.kill(-quickSuite.pid, 'SIGINT');
  const { code } = await quickSuite.finished;
  assert.equal(code, 130, quickSuite.stderr());

  // The README: echo, 32 B ping-pong, 3 interleaved rounds of 0.6 s per cell, the 5 x 5 matrix with 8 n/a, and the files it leaves.
  assert.match(quickSuite.stdout(), /^echo: /);
  const resultFile = join(folder, 'wsbench-results.json');
  assert.ok(existsSync(resultFile), 'wsbench-results.json in the current folder');
  assert.ok(
    existsSync(join(folder, 'wsbench-results.report', 'report.html')),
    'wsbench-results.report/report.html beside it',
  );
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as BenchResult;
  assert.equal(result.cells.length, 25);
  assert.equal(result.repeat, 3);
  for (const cell of result.cells) {
    assert.equal(cell.scenario, 'echo');
    assert.deepEqual(
      [cell.params.payload, cell.params.inflight, cell.params.connections, cell.params.duration],
      [32, 1, 1, 600],
    );
  }
  const cannotTalk = result.cells.filter((cell) => cell.status === 'skipped' && / cannot talk to /.test(cell.reason));
  assert.equal(cannotTalk.length, 8, 'the 8 n/a pairs (socket.io against plain WebSocket)');
  assert.equal(result.cells[0]!.status, 'ok', 'the first cell was measured');
  assert.deepEqual(unignoredFiles(folder), [], "what the quick start leaves shows in a clone's `git status`");
});
