/**
 * Every command of docs/ runs as written in a clone: each line of a page's `sh`
 * blocks (continuations joined, comments dropped) that calls wsbench calls it
 * as `npx wsbench` (a clone has no `wsbench` on PATH), and is pasted into
 * `sh -c`, in a folder like a clone's root (examples/ beside it), with an
 * `npx` that runs this checkout's bin and nothing else (npx would otherwise
 * download). The lines of one page run in order, in one folder, as a reader
 * pastes them. A run or capacity search is stopped as Ctrl+C stops it once
 * its first cell or pair has started (exit 130, what it measured written);
 * the others run to their end. The README's own commands are
 * readme-quick-start.test.ts's and readme-commands.test.ts's.
 *
 * What cannot run here is said, by command, with the reason: a command of
 * another tool (npm, kubectl, docker, git, python), a placeholder (`...`, a
 * pid, your own scenario, a machine elsewhere), a server of yours, or the
 * reference servers' .venv when it was not made.
 *
 * Slow (about a minute): it starts wsbench once for each of the 60-odd command lines of docs/, each until its first cell has started.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { BIN, REPO_ROOT, tempDir, untilJournalSays } from './support.js';
import { startCli, type LiveCli } from './live-cli.js';
import { fencedBlocks } from '../tools/markdown.js';
import { asCloneRoot } from './clone-status.js';
import { ECHO_FIXTURE, newTag } from './foreign-processes.js';

const DOCS = join(REPO_ROOT, 'docs');
const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'echo-run.json');
const VENV_PYTHON = join(REPO_ROOT, '.venv', 'bin', 'python');
/** Pages run at once: each line is mostly a process starting and waiting for its first cell. */
const PAGES_AT_ONCE = 3;
/** A first cell starts within seconds; this leaves a busy machine room. */
const START_DEADLINE_MS = 90_000;
/** A run or capacity search has begun measuring: its first cell or pair started (on stderr, beside a table for people). */
const STARTED = /\[1\/\d+\] .*: started|^\S+ x \S+:$/m;
/** The same fact in a journal, for a run that prints no progress (CSV or JSON on stdout is for a program). */
const JOURNALED_START = '"type":"cell-start"';

/** Every page under docs/, relative to it. */
function pages(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? under(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return under(DOCS)
    .map((path) => relative(DOCS, path))
    .sort();
}

/** The command lines of a page's `sh` blocks: continuations joined, comments dropped. */
function commandsOf(page: string): string[] {
  return fencedBlocks(readFileSync(join(DOCS, page), 'utf8'))
    .filter((block) => block.info === 'sh')
    .flatMap((block) => block.body.replace(/\s*\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line !== '');
}

/** Where a line calls a bare `wsbench`: at the start of a command (the line's, or after &&, ||, ;, | or $( ), not after npx. */
const BARE_WSBENCH = /(^|&&|\|\||;|\||\$\()\s*wsbench(\s|$)/;

/** Why a line of wsbench's is not run here; the lines of other tools are said by their program (below). */
const NOT_RUN: Record<string, string> = {
  'pid=$(pgrep -o -f my_server) && npx wsbench run ticker-orders --target mine=ws://127.0.0.1:8765/ --target-pid "$pid"':
    'needs your server (my_server) running',
  'npx wsbench run echo --target mine=ws://127.0.0.1:8765/ --target-pid 4242': '4242 stands for your server process',
  "npx wsbench run echo --server-cmd base='node base/server.js --port {port}' --server-cmd new='node new/server.js --port {port}' --clients ws --repeat 5 --out ab.json":
    'base/ and new/ stand for your two builds',
  'npx wsbench compare ab.json --servers base,new --fail-on-regression 10':
    'needs the ab.json of the two builds (the line above)',
  'npx wsbench run ./my-scenario.js --out my.json': 'my-scenario.js stands for your scenario',
  "npx wsbench run echo --server-cmd 'py=python3 node_modules/wsbench/examples/python/websockets_server.py --port {port}'":
    'in a project that installed the package (packed-install.test.ts installs one)',
  'npx wsbench run echo --target own=wss://127.0.0.1:8443/ --ca ./my-ca.pem': 'needs your TLS server and its CA',
  'npx wsbench run echo --target own=wss://127.0.0.1:8443/ --insecure': 'needs your TLS server',
  'npx wsbench merge shards.log --out merged.json': "needs the shards' logs from the cluster (kubectl logs above)",
  'npx wsbench run fanout --target ws://server.example:8080/ --connections 30000 --shard 0/3 --run-id fan-1 --barrier http://loadgen-0:7070 --json-line > shard-0.log':
    'a server and load generators on other machines (server.example, loadgen-0): no traffic leaves loopback here',
  'npx wsbench run fanout ... --shard 1/3 --run-id fan-1 --barrier http://loadgen-0:7070 --json-line > shard-1.log':
    '"..." stands for the first shard\'s flags, on another machine',
  'npx wsbench run fanout ... --shard 2/3 --run-id fan-1 --barrier http://loadgen-0:7070 --json-line > shard-2.log':
    '"..." stands for the first shard\'s flags, on another machine',
  'npx wsbench merge shard-*.log --out merged.json': "needs the shards' logs from the other machines",
};

/** Why a line of another tool is not run here, by its program. */
function otherTool(line: string): string {
  const program = line.split(/\s+/)[0]!;
  if (program === 'npm') return 'npm installs, packs, builds or runs the suite: CI and the packaging tests run those';
  if (program === 'kubectl' || program === 'until') return 'needs a Kubernetes cluster';
  if (program === 'docker') return 'needs Docker and a registry';
  if (program === 'git') return 'downloads';
  if (program.startsWith('.venv/') || program === 'python3')
    return "the Python reference servers' .venv (pip downloads from PyPI)";
  if (program === 'node') return 'a server of the installed package, in a project that installed it';
  if (program === 'mkdir') return 'part of installing the package elsewhere (the packaging tests)';
  return `${program} is not wsbench`;
}

/** A line that needs the reference servers' .venv, when it was not made here. */
function needsVenv(line: string): boolean {
  return line.includes('.venv/bin/python') && !existsSync(VENV_PYTHON);
}

const running = new Set<LiveCli>();
const servers: ChildProcess[] = [];
after(() => {
  for (const cli of running) if (cli.child.exitCode === null) process.kill(-cli.pid, 'SIGKILL');
  for (const server of servers) server.kill('SIGKILL');
});

/** A folder like a clone's root, and an `npx` that runs this checkout's bin (and writes its pid where the test reads it). */
function cloneLikeFolder(): { folder: string; env: NodeJS.ProcessEnv; pidFile: string } {
  const folder = tempDir();
  asCloneRoot(folder);
  symlinkSync(join(REPO_ROOT, 'examples'), join(folder, 'examples'));
  if (existsSync(join(REPO_ROOT, '.venv'))) symlinkSync(join(REPO_ROOT, '.venv'), join(folder, '.venv'));
  const shims = join(tempDir(), 'bin');
  mkdirSync(shims);
  const pidFile = join(shims, 'wsbench.pid');
  writeFileSync(
    join(shims, 'npx'),
    `#!/bin/sh\n[ "$1" = wsbench ] || { echo "npx $1: only npx wsbench here" >&2; exit 127; }\nshift\necho $$ > '${pidFile}'\nexec '${process.execPath}' '${BIN}' "$@"\n`,
  );
  chmodSync(join(shims, 'npx'), 0o755);
  return {
    folder,
    pidFile,
    // What a GitHub job has: the step summary file a command may append to.
    env: { PATH: `${shims}:${process.env.PATH}`, GITHUB_STEP_SUMMARY: join(folder, 'step-summary.md') },
  };
}

/** The inputs a page's lines name that a reader has by then: a result for compare and report, the page's own plan. */
function prepareInputs(page: string, folder: string): void {
  const text = readFileSync(join(DOCS, page), 'utf8');
  for (const name of ['base.json', 'new.json', 'results.json', 'merged.json'])
    if (commandsOf(page).some((line) => line.includes(name))) copyFileSync(FIXTURE, join(folder, name));
  const plan = fencedBlocks(text).find((block) => block.info === 'yaml' && block.body.startsWith('# plan.yaml'));
  if (plan) writeFileSync(join(folder, 'plan.yaml'), plan.body);
}

/** The echo fixture on `port` for a page whose lines target it; false when the port is taken. */
async function echoServerOn(port: number): Promise<boolean> {
  const free = await new Promise<boolean>((resolve) => {
    const probe = createServer().once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
  if (!free) return false;
  const child = spawn(process.execPath, [ECHO_FIXTURE, '--port', String(port), '--tag', newTag()], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  servers.push(child);
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  return true;
}

/** How a line ends: stopped once it started measuring (SIGINT, or SIGKILL to leave a journal), or run to its end. */
type Stop = 'SIGINT' | 'SIGKILL';
const STOP_WITH: Record<string, Stop> = {
  // The page's story: wsbench is killed mid-run, and the journal it left is recovered.
  'npx wsbench run firehose --preset seed --out soak.json': 'SIGKILL',
};

/** The journals in `folder`, by name, with their sizes. */
function journals(folder: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const name of readdirSync(folder).filter((file) => file.endsWith('.journal'))) {
    try {
      found.set(name, statSync(join(folder, name)).size);
    } catch {
      // removed as a run ended
    }
  }
  return found;
}

/**
 * True once a journal in `folder` that is not one of `before` (or has grown since) records a cell's start;
 * false after `ms`, or once `over()` says the wait no longer matters.
 */
async function untilJournaled(
  folder: string,
  before: Map<string, number>,
  ms: number,
  over: () => boolean,
): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until && !over(); await new Promise((r) => setTimeout(r, 100))) {
    for (const [name, size] of journals(folder)) {
      if (before.get(name) === size) continue;
      try {
        if (readFileSync(join(folder, name), 'utf8').includes(JOURNALED_START)) return true;
      } catch {
        // removed as the run ended
      }
    }
  }
  return false;
}

/** Runs `line` with `sh -c` in `folder`; returns how it ended and what it said. */
async function runLine(
  line: string,
  where: ReturnType<typeof cloneLikeFolder>,
): Promise<{ code: number | null; stderr: string; stopped: Stop | null }> {
  const before = journals(where.folder);
  let settled = false;
  const cli = startCli([], {
    command: ['sh', '-c', line],
    cwd: where.folder,
    env: where.env,
    ownProcessGroup: true,
    timeoutMs: 300_000,
  });
  running.add(cli);
  const started = await Promise.race([
    cli.waitForStderr(STARTED, START_DEADLINE_MS).then(
      () => true,
      () => false,
    ),
    untilJournaled(where.folder, before, START_DEADLINE_MS, () => settled),
    cli.finished.then(() => false),
  ]);
  settled = true;
  let stopped: Stop | null = null;
  if (started && cli.child.exitCode === null) {
    stopped = STOP_WITH[line] ?? 'SIGINT';
    const out = /--out (\S+)/.exec(line)?.[1];
    if (stopped === 'SIGKILL' && out) await untilJournalSays(join(where.folder, out), 'window-open');
    // wsbench itself, as Ctrl+C or a kill reaches it; the shell around it waits for it.
    process.kill(Number(readFileSync(where.pidFile, 'utf8')), stopped);
  }
  const { code } = await cli.finished;
  running.delete(cli);
  return { code, stderr: cli.stderr(), stopped };
}

test('no command of docs/ calls a bare wsbench (not on PATH in a clone): each is npx wsbench', () => {
  const bare = pages().flatMap((page) =>
    commandsOf(page)
      .filter((line) => BARE_WSBENCH.test(line))
      .map((line) => `${page}: ${line}`),
  );
  assert.deepEqual(bare, []);
});

test('every line NOT_RUN names is still on a page', () => {
  const all = new Set(pages().flatMap(commandsOf));
  assert.deepEqual(
    Object.keys(NOT_RUN).filter((line) => !all.has(line)),
    [],
  );
});

/**
 * Pages whose lines take a fixed port (a server of yours on 8765, the metrics endpoint's 9464) run one at a
 * time; the others run beside them: most of a line's time is a child starting, and pages share nothing else.
 */
const FIXED_PORT = /:8765\/|--metrics-listen|--dashboard/;
let fixedPortTurn: Promise<void> = Promise.resolve();
async function withFixedPorts<T>(needs: boolean, work: () => Promise<T>): Promise<T> {
  if (!needs) return work();
  const previous = fixedPortTurn;
  let release: () => void = () => undefined;
  fixedPortTurn = new Promise((resolve) => (release = resolve));
  await previous;
  try {
    return await work();
  } finally {
    release();
  }
}

describe('docs pages', { concurrency: PAGES_AT_ONCE }, () => {
  for (const page of pages().filter((p) => commandsOf(p).some((line) => line.includes('npx wsbench')))) {
    test(`docs/${page}: its npx wsbench lines run as written`, { timeout: 900_000 }, (t) =>
      withFixedPorts(
        commandsOf(page).some((line) => FIXED_PORT.test(line)),
        async () => {
          const where = cloneLikeFolder();
          prepareInputs(page, where.folder);
          const lines = commandsOf(page);
          const needs8765 = lines.some((line) => line.includes('ws://127.0.0.1:8765/') && !(line in NOT_RUN));
          const serving8765 = needs8765 && (await echoServerOn(8765));
          let journal: Buffer | null = null;
          for (const line of lines) {
            const why = !line.includes('npx wsbench')
              ? otherTool(line)
              : (NOT_RUN[line] ??
                (needsVenv(line)
                  ? `no ${VENV_PYTHON}: the venv line was not run here`
                  : needs8765 && !serving8765 && line.includes(':8765/')
                    ? 'port 8765 is taken here: no server of the test can stand for yours'
                    : null));
            if (why !== null) {
              t.diagnostic(`not run: ${line} (${why})`);
              continue;
            }
            // The journal the kill left, for the line that reports from it after recover has used it up.
            const soak = join(where.folder, 'soak.json.journal');
            if (line.includes('report soak.json.journal') && journal && !existsSync(soak)) writeFileSync(soak, journal);
            const { code, stderr, stopped } = await runLine(line, where);
            const said = `${line}\n${stderr}`;
            // A fixed port of the page's (9464) may be another program's here, or another test's meanwhile.
            if (code === 2 && /^wsbench: --[a-z-]+: \S+:\d+ is in use /m.test(stderr)) {
              t.diagnostic(`not run to its end: ${line} (${stderr.trim()})`);
              continue;
            }
            assert.doesNotMatch(stderr, /internal error/, said);
            if (stopped === 'SIGINT') assert.equal(code, 130, said);
            else if (stopped === 'SIGKILL') {
              assert.equal(code, 137, said);
              journal = existsSync(soak) ? readFileSync(soak) : null;
              assert.ok(journal, `the kill left ${soak}`);
            } else if (code === 1 && /nothing was measured: every cell was skipped/.test(stderr))
              t.diagnostic(`every cell n/a here: ${line}: ${stderr.trim().split('\n').at(-1)}`);
            else assert.equal(code, 0, said);
            t.diagnostic(`ran: ${line} (${stopped ? `${stopped} once it started` : `exit ${code}`})`);
          }
        },
      ),
    );
  }
});
