#!/usr/bin/env node
/**
 * Runs the quick suite as a user does on a fresh clone (bare `npx wsbench`:
 * echo over every stack pair, 3 rounds, about a minute of both cores) in a
 * temp folder, and prints the README's sample of it: the output as it was
 * printed, then a paragraph with the machine, its load average before and
 * after, the time it took and the stacks' versions.
 *
 *   node scripts/readme-sample.mjs            print the sample
 *   node scripts/readme-sample.mjs --write    and put it in README.md, between its <!--readme-sample--> markers
 *
 * It needs the build (`npm run build`): the formatting is test/readme-sample.ts,
 * which readme-sample.test.ts holds the README to. Run it on a machine as quiet
 * as you have; the paragraph says how loaded it was. Exit 0: printed (and
 * written); 1: the suite failed (its stderr is shown); 2: usage.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
if (args.some((arg) => arg !== '--write')) {
  process.stderr.write(
    `readme-sample: unknown argument ${args.find((arg) => arg !== '--write')}\nusage: node scripts/readme-sample.mjs [--write]\n`,
  );
  process.exit(2);
}
const built = join(ROOT, 'dist', 'test', 'readme-sample.js');
if (!existsSync(built)) {
  process.stderr.write('readme-sample: dist/test/readme-sample.js is missing: run npm run build first\n');
  process.exit(2);
}
const { sampleText, withSample } = await import(pathToFileURL(built).href);

const folder = mkdtempSync(join(tmpdir(), 'wsbench-readme-sample-'));
try {
  const loadBefore = loadavg()[0];
  const started = Date.now();
  // Bare, as the README's quick start runs it: the bin with no argument, in a folder of its own.
  const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'wsbench.js')], {
    cwd: folder,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const elapsedMs = Date.now() - started;
  const loadAfter = loadavg()[0];
  if (run.status !== 0) {
    process.stderr.write(`readme-sample: the quick suite exited ${run.status ?? run.signal}:\n${run.stderr}`);
    process.exit(1);
  }
  const result = JSON.parse(readFileSync(join(folder, 'wsbench-results.json'), 'utf8'));
  const text = sampleText(run.stdout, { result, elapsedMs, loadBefore, loadAfter });
  process.stdout.write(text);
  if (args.includes('--write')) {
    const readme = join(ROOT, 'README.md');
    writeFileSync(readme, withSample(readFileSync(readme, 'utf8'), text));
    process.stdout.write('\nrewrote the sample in README.md\n');
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
