/**
 * Every command the README shows after its quick start (which
 * readme-quick-start.test.ts checks) works as written on a fresh clone, after
 * the README's own setup. Each command of its `sh` blocks has a check here,
 * keyed by its exact text, and a command without one fails the first test.
 * A `npx wsbench` command is run as the bin with exactly the README's words,
 * in a folder of its own that holds what a clone has beside it (examples/,
 * the .venv the README's own line makes). A run that lasts minutes or an hour
 * is stopped as Ctrl+C stops it once it has measured its first cell (or
 * step): it must then write what it measured and exit 130. What a check
 * cannot run inside `npm test` (it downloads) is in its name. The commands of
 * docs/ are docs-commands.test.ts's.
 *
 * Slow (about a minute): it runs every command of the README as written, each until it has measured a cell.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, runCli, tempDir } from './support.js';
import { startCli, type LiveCli } from './live-cli.js';
import { fencedBlocks } from '../tools/markdown.js';
import { asCloneRoot, unignoredFiles } from './clone-status.js';

/** A cell of 5 s takes ~10 s to its end on a busy machine; this leaves room. */
const FIRST_CELL_DEADLINE_MS = 60_000;
const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'echo-run.json');
const VENV_PYTHON = join(REPO_ROOT, '.venv', 'bin', 'python');

/** The commands of the README's `sh` blocks after the quick start: comments dropped, `a && b` taken apart. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const tasks = readme.indexOf('\n## ', readme.indexOf('\n## Quick start\n') + 1);
  assert.ok(tasks > 0, 'the README has a section after its quick start');
  return fencedBlocks(readme.slice(tasks))
    .filter((block) => block.info === 'sh')
    .flatMap((block) => block.body.split('\n'))
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .flatMap((line) => line.split('&&'))
    .map((command) => command.trim())
    .filter((command) => command !== '');
}

/** Shell words of a command: blanks split, single and double quotes group (the README needs no more). */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** The bin's arguments of a `npx wsbench ...` command. */
function wsbenchArgs(command: string): string[] {
  const [npx, wsbench, ...args] = words(command);
  assert.deepEqual([npx, wsbench], ['npx', 'wsbench'], command);
  return args;
}

/** What cloneLikeFolder links in from the checkout; a clone tracks it (.venv its .gitignore covers). */
const CLONE_LINKS = ['examples'];

/** A folder like a clone's root for a run, with its .gitignore: examples/ and .venv are the clone's, outputs land here. */
function cloneLikeFolder(): string {
  const folder = tempDir();
  asCloneRoot(folder);
  symlinkSync(join(REPO_ROOT, 'examples'), join(folder, 'examples'));
  if (existsSync(join(REPO_ROOT, '.venv'))) symlinkSync(join(REPO_ROOT, '.venv'), join(folder, '.venv'));
  return folder;
}

const running = new Set<LiveCli>();
after(() => {
  // Only after a failed check is one still going: its whole group goes.
  for (const cli of running) if (cli.child.exitCode === null) process.kill(-cli.pid, 'SIGKILL');
});

/**
 * Runs `args` as written in `cwd` until stderr matches `measured`, then sends SIGINT to its group as a
 * terminal's Ctrl+C does; expects exit 130 and returns its output.
 */
async function runUntilMeasured(
  args: string[],
  cwd: string,
  measured: RegExp,
): Promise<{ stdout: string; stderr: string }> {
  const cli = startCli(args, { cwd, ownProcessGroup: true, timeoutMs: 180_000 });
  running.add(cli);
  await cli.waitForStderr(measured, FIRST_CELL_DEADLINE_MS);
  process.kill(-cli.pid, 'SIGINT');
  const { code } = await cli.finished;
  assert.equal(code, 130, cli.stderr());
  return { stdout: cli.stdout(), stderr: cli.stderr() };
}

/** The project `init mybench` wrote, for the commands that follow it. */
let initProject: string | null = null;

const firstCellOk = /\[1\/\d+\] .*: ok in /;

interface SweepResult {
  cells: Array<{
    server: string;
    client: string;
    status: string;
    params: Record<string, unknown>;
    load?: { model: string };
  }>;
}

/** Runs a README sweep in a clone-like folder until its first cell is measured, and reads the result it wrote. */
async function resultOnceMeasured(command: string): Promise<SweepResult> {
  const folder = cloneLikeFolder();
  await runUntilMeasured(wsbenchArgs(command), folder, firstCellOk);
  return JSON.parse(readFileSync(join(folder, 'wsbench-results.json'), 'utf8')) as SweepResult;
}

const CHECKS: Record<string, (t: import('node:test').TestContext) => Promise<void> | void> = {
  'npx wsbench run echo --rate 1000,5000,20000 --servers ws,uws,bun --clients ws --connections 10': async () => {
    const result = await resultOnceMeasured(
      'npx wsbench run echo --rate 1000,5000,20000 --servers ws,uws,bun --clients ws --connections 10',
    );
    assert.equal(result.cells.length, 9, 'three servers at three rates');
    assert.equal(result.cells[0]!.status, 'ok');
    assert.equal(result.cells[0]!.load?.model, 'open');
  },
  'npx wsbench run echo --servers ws,uws --clients ws --connections 1,10,100 --duration 5s': async () => {
    const result = await resultOnceMeasured(
      'npx wsbench run echo --servers ws,uws --clients ws --connections 1,10,100 --duration 5s',
    );
    const cells = result.cells.map((c) => `${c.server} x ${c.client} @ ${String(c.params.connections)}`).sort();
    assert.deepEqual(
      cells,
      ['uws', 'ws'].flatMap((s) => [1, 10, 100].map((n) => `${s} x ws @ ${n}`)),
    );
    assert.equal(result.cells[0]!.status, 'ok');
  },
  'python3 -m venv .venv': () => {
    // Checked with the line it belongs to, below.
  },
  '.venv/bin/pip install -r examples/python/requirements.txt': () => {
    // Not run (pip downloads from PyPI): what it installs is pinned, and it is the .venv the next command runs.
    const pins = readFileSync(join(REPO_ROOT, 'examples', 'python', 'requirements.txt'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    assert.ok(
      pins.length > 0 && pins.every((line) => /^[A-Za-z0-9_.-]+==[\w.]+$/.test(line.trim())),
      `every requirement is pinned: ${pins.join(', ')}`,
    );
    const commands = readmeCommands();
    const uses = commands.findIndex((command) => command.includes('.venv/bin/python'));
    assert.ok(
      uses > commands.indexOf('python3 -m venv .venv') && commands.indexOf('python3 -m venv .venv') >= 0,
      'the README makes .venv before a command uses it',
    );
  },
  "npx wsbench run echo --servers uws --server-cmd 'py=.venv/bin/python examples/python/websockets_server.py --port {port}'":
    async (t) => {
      if (!existsSync(VENV_PYTHON))
        return t.skip(`no ${VENV_PYTHON}: the README's venv line (run by .ci/run) was not run here`);
      const folder = cloneLikeFolder();
      // Planning refuses a --server-cmd whose program is missing: a first cell measured means the command stood as written.
      const { stderr } = await runUntilMeasured(
        wsbenchArgs(
          "npx wsbench run echo --servers uws --server-cmd 'py=.venv/bin/python examples/python/websockets_server.py --port {port}'",
        ),
        folder,
        firstCellOk,
      );
      assert.doesNotMatch(stderr, /command not found/);
      const result = JSON.parse(readFileSync(join(folder, 'wsbench-results.json'), 'utf8')) as {
        cells: Array<{ server: string }>;
      };
      assert.deepEqual([...new Set(result.cells.map((c) => c.server))], ['uws', 'py']);
    },
  'npx wsbench init mybench': async () => {
    const folder = tempDir();
    initProject = join(folder, 'mybench');
    const init = await runCli(wsbenchArgs('npx wsbench init mybench'), { cwd: folder });
    assert.equal(init.code, 0, init.stderr);
    // The next steps it prints are the README's.
    assert.match(init.stdout, /^ {2}cd mybench$/m);
    assert.match(init.stdout, /^ {2}npm install$/m);
    assert.match(init.stdout, /^ {2}npm run bench -- --target ws:\/\/127\.0\.0\.1:8080\/$/m);
  },
  'cd mybench': () => {
    assert.ok(
      initProject !== null && existsSync(join(initProject, 'package.json')),
      'init made mybench/ (the check above)',
    );
  },
  'npm install': () => {
    // Not run here (it installs from the registry): packed-install.test.ts runs it in an init project, offline.
    assert.match(
      readFileSync(join(REPO_ROOT, 'test', 'packed-install.test.ts'), 'utf8'),
      /test\('init in the installed package, then npm install && npm run bench -- --target in a copy of the project elsewhere: a table and a report'/,
    );
  },
  'npm run bench -- --target ws://127.0.0.1:8080/': () => {
    // Run by packed-install.test.ts after npm install (above); here: the project init wrote has that script.
    const manifest = JSON.parse(readFileSync(join(initProject!, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    assert.match(manifest.scripts?.bench ?? '', /wsbench run /);
  },
  'npx wsbench compare base.json new.json --fail-on-regression 10': async () => {
    const folder = tempDir();
    copyFileSync(FIXTURE, join(folder, 'base.json'));
    copyFileSync(FIXTURE, join(folder, 'new.json'));
    const outcome = await runCli(wsbenchArgs('npx wsbench compare base.json new.json --fail-on-regression 10'), {
      cwd: folder,
    });
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.match(outcome.stderr + outcome.stdout, /gate passed at --fail-on-regression 10%/);
  },
  "npx wsbench capacity fanout --slo 'p99<500ms,errors=0' --duration 5s": async () => {
    const folder = cloneLikeFolder();
    await runUntilMeasured(
      wsbenchArgs("npx wsbench capacity fanout --slo 'p99<500ms,errors=0' --duration 5s"),
      folder,
      /connections, \d+ client procs?: .* -> (within|broken)/,
    );
    const result = JSON.parse(readFileSync(join(folder, 'wsbench-capacity.json'), 'utf8')) as {
      capacity?: unknown;
      interrupted: boolean;
    };
    assert.equal(result.interrupted, true);
    assert.ok(result.capacity, 'the capacity section of what was measured');
    assert.deepEqual(unignoredFiles(folder, CLONE_LINKS), [], "what capacity leaves shows in a clone's `git status`");
  },
  'npx wsbench run firehose --duration 1h --dashboard --metrics-listen :9464': async (t) => {
    const folder = cloneLikeFolder();
    const cli = startCli(wsbenchArgs('npx wsbench run firehose --duration 1h --dashboard --metrics-listen :9464'), {
      cwd: folder,
      ownProcessGroup: true,
      timeoutMs: 180_000,
    });
    running.add(cli);
    // The port is the README's: another program may hold it on this machine.
    const listening = await Promise.race([
      cli.waitForStderr(/metrics: http:\/\/127\.0\.0\.1:9464\/metrics/, FIRST_CELL_DEADLINE_MS).then(() => true),
      cli.finished.then(() => false),
    ]);
    if (!listening && /EADDRINUSE|in use/.test(cli.stderr()))
      return t.skip(`port 9464 is taken here: ${cli.stderr().trim()}`);
    assert.ok(listening, cli.stderr());
    await cli.waitForStderr(/\[1\/\d+\] .*: started/, FIRST_CELL_DEADLINE_MS);
    const response = await fetch('http://127.0.0.1:9464/metrics', { signal: AbortSignal.timeout(10_000) });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /^wsbench_/m);
    process.kill(-cli.pid, 'SIGINT');
    const { code } = await cli.finished;
    assert.equal(code, 130, cli.stderr());
    assert.ok(existsSync(join(folder, 'wsbench-results.json')), 'what was measured is written');
  },
};

test('every command of the README after its quick start has a check here', () => {
  const commands = readmeCommands();
  assert.deepEqual(
    commands.filter((command) => !(command in CHECKS)),
    [],
  );
  assert.deepEqual(
    Object.keys(CHECKS).filter((command) => !commands.includes(command)),
    [],
    'a check for a command the README no longer shows',
  );
});

for (const [command, check] of Object.entries(CHECKS)) {
  test(`README: ${command}`, { timeout: 240_000 }, (t) => check(t));
}
