/**
 * What `npm test` runs after the build: the test files as suite-files.ts sorts
 * them, those that run together with `node --test --test-concurrency=2`, then
 * those that run alone. Arguments are passed on to both runs (`npm test --
 * --test-reporter=tap`). Exit code 1 when either run failed, 2 when the list is
 * wrong; a signal to this process is passed on to the run in progress.
 */
import { spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suiteFiles, TEST_CONCURRENCY } from './suite-files.js';

const TEST_DIR = fileURLToPath(new URL('.', import.meta.url));
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function nodeTest(files: string[], concurrency: number, args: string[]): Promise<number> {
  if (files.length === 0) return Promise.resolve(0);
  const paths = files.map((file) => relative(process.cwd(), join(TEST_DIR, file)));
  const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...args, ...paths], {
    stdio: 'inherit',
  });
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
const together = await nodeTest(files.together, TEST_CONCURRENCY, args);
const alone = await nodeTest(files.alone, 1, args);
process.exit(together === 0 && alone === 0 ? 0 : 1);
