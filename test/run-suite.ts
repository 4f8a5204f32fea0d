/**
 * What `npm test` runs after the build: every dist/test/*.test.js file, two at a
 * time (CI has 2 cores, and most tests spend much of their time waiting for child
 * processes to start, connect and report), then the files named in SERIAL one at
 * a time with nothing else running: they judge a process by the CPU it got, which
 * a test file on the other core would take from it. Arguments are passed on to
 * both `node --test` runs (`npm test -- --test-reporter=tap`). Exit code 1 when
 * either run failed; a signal to this process is passed on to the run in progress.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEST_DIR = fileURLToPath(new URL('.', import.meta.url));
const CONCURRENCY = 2;

/** Test files that run alone, after the others, each with the reason. */
const SERIAL: Record<string, string> = {
  'misbehaving-server.test.js': 'a spinning server is told hung (not merely silent) only when it used 85 % of a core through the window',
};

function nodeTest(files: string[], concurrency: number, args: string[]): Promise<number> {
  if (files.length === 0) return Promise.resolve(0);
  const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...args, ...files], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, forward);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, forward);
      resolve(code ?? 1);
    });
  });
}

const missing = Object.keys(SERIAL).filter((file) => !existsSync(join(TEST_DIR, file)));
if (missing.length > 0) {
  process.stderr.write(`run-suite: SERIAL names ${missing.join(', ')}, not in ${TEST_DIR}\n`);
  process.exit(2);
}
const path = (file: string): string => relative(process.cwd(), join(TEST_DIR, file));
const files = readdirSync(TEST_DIR).filter((file) => file.endsWith('.test.js')).sort();
const args = process.argv.slice(2);
const together = await nodeTest(files.filter((file) => !(file in SERIAL)).map(path), CONCURRENCY, args);
const alone = await nodeTest(files.filter((file) => file in SERIAL).map(path), 1, args);
process.exit(together === 0 && alone === 0 ? 0 : 1);
