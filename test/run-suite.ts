/**
 * What `npm test` runs after the build: the test files as suite-files.ts sorts
 * them, those that run together with `node --test --test-concurrency=N`
 * (TEST_CONCURRENCY), then those that run alone; at the end, the slowest ten files. Arguments are passed on to both runs (`npm test --
 * --test-reporter=tap`). Exit code 1 when either run failed, 2 when the list is
 * wrong; a signal to this process is passed on to the run in progress.
 *
 * Every test has a deadline (TEST_DEADLINE_MS, far beyond the slowest test on a
 * loaded machine) and a file exits once its tests ended: a wait that never
 * settles, or a timer a failed test left running, fails that test by name
 * instead of hanging the suite.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suiteFiles, TEST_CONCURRENCY } from './suite-files.js';

const TEST_DIR = fileURLToPath(new URL('./', import.meta.url));
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const TEST_DEADLINE_MS = 15 * 60_000;

/** How many of the slowest files the suite names at its end. */
const SLOWEST_SHOWN = 10;

/**
 * The reporters: the one people read (the user's, when `npm test -- --test-reporter=...` names one; else
 * spec on a terminal and TAP elsewhere, node's own defaults), and file-durations-reporter.js into `timings`.
 */
function reporterArgs(args: string[], timings: string): string[] {
  if (args.some((arg) => arg.startsWith('--test-reporter'))) return [];
  return [
    `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
    '--test-reporter-destination=stdout',
    `--test-reporter=${join(TEST_DIR, 'file-durations-reporter.js')}`,
    `--test-reporter-destination=${timings}`,
  ];
}

function nodeTest(files: string[], concurrency: number, args: string[], timings: string): Promise<number> {
  if (files.length === 0) return Promise.resolve(0);
  const paths = files.map((file) => relative(process.cwd(), join(TEST_DIR, file)));
  const child = spawn(
    process.execPath,
    [
      '--test',
      `--test-concurrency=${concurrency}`,
      `--test-timeout=${TEST_DEADLINE_MS}`,
      '--test-force-exit',
      ...reporterArgs(args, timings),
      ...args,
      ...paths,
    ],
    {
      stdio: 'inherit',
    },
  );
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  for (const signal of SIGNALS) process.on(signal, forward);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      for (const signal of SIGNALS) process.off(signal, forward);
      resolve(code ?? 1);
    });
  });
}

let files: ReturnType<typeof suiteFiles>;
try {
  files = suiteFiles(TEST_DIR);
} catch (error) {
  process.stderr.write(`run-suite: ${(error as Error).message}\n`);
  process.exit(2);
}
const args = process.argv.slice(2);
const timingsDir = mkdtempSync(join(tmpdir(), 'wsbench-suite-'));
const started = Date.now();
const together = await nodeTest(files.together, TEST_CONCURRENCY, args, join(timingsDir, 'together.jsonl'));
const alone = await nodeTest(files.alone, 1, args, join(timingsDir, 'alone.jsonl'));
process.stdout.write(slowestFiles(timingsDir, Date.now() - started));
rmSync(timingsDir, { recursive: true, force: true });
process.exit(together === 0 && alone === 0 ? 0 : 1);

/** The suite's wall time and its slowest files, from the timings the durations reporter wrote. */
function slowestFiles(dir: string, wallMs: number): string {
  const runs = readdirSync(dir).flatMap((name) =>
    readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { file: string; ms: number; failed: boolean }),
  );
  if (runs.length === 0) return '';
  // A file's time is its top-level tests' together.
  const files = new Map<string, { file: string; ms: number; failed: boolean }>();
  for (const run of runs) {
    const known = files.get(run.file) ?? { file: run.file, ms: 0, failed: false };
    files.set(run.file, { file: run.file, ms: known.ms + run.ms, failed: known.failed || run.failed });
  }
  const slowest = [...files.values()].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN);
  return [
    '',
    `suite: ${files.size} files in ${(wallMs / 1000).toFixed(0)} s; the ${slowest.length} slowest (each file's tests, one after another):`,
    ...slowest.map(
      (r) =>
        `  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${relative(TEST_DIR, r.file)}${r.failed ? '  (failed)' : ''}`,
    ),
    '',
  ].join('\n');
}
