#!/usr/bin/env node
/**
 * Measures the package and checks, or rewrites, the sizes the docs quote
 * between `<!--size:KEY-->` markers (README.md and docs/; the figures and
 * their tolerance are in test/package-figures.ts).
 *
 *   node scripts/package-size.mjs                    check the tarball's figures (npm pack --dry-run --json)
 *   node scripts/package-size.mjs --install          and node_modules' figures, from an install of the tarball
 *   node scripts/package-size.mjs [--install] --write   rewrite them with what was measured
 *
 * --install packs the checkout and installs the tarball into a temp project
 * offline, as the packaging tests do (test/packed-install.ts: npm's cache must
 * hold the dependencies, as `npm ci` in the checkout leaves it), then deletes
 * the project. It needs the build (`npm run build`). The packaging tests check
 * the same figures on their own install; this is how to bring the docs back in
 * line when they fail.
 *
 * Exit 0: every figure within its tolerance (or rewritten); 1: some are off,
 * listed; 2: usage.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--install' && arg !== '--write');
if (unknown.length > 0) {
  process.stderr.write(
    `package-size: unknown argument ${unknown[0]}\nusage: node scripts/package-size.mjs [--install] [--write]\n`,
  );
  process.exit(2);
}
const built = join(ROOT, 'dist', 'test', 'package-figures.js');
if (!existsSync(built)) {
  process.stderr.write('package-size: dist/test/package-figures.js is missing: run npm run build first\n');
  process.exit(2);
}
const figures = await import(pathToFileURL(built).href);
const { npmEnv, packAndInstall, packingAlone } = await import(
  pathToFileURL(join(ROOT, 'dist', 'test', 'packed-install.js')).href
);

const measured = new Map();
if (args.includes('--install')) {
  const installed = await packAndInstall();
  try {
    for (const [key, value] of figures.packFigures(installed.packed)) measured.set(key, value);
    for (const [key, value] of figures.installFigures(installed.projectDir)) measured.set(key, value);
  } finally {
    installed.remove();
  }
} else {
  // With its scripts, as a real pack: the manifest it measures is the one that ships. Not while a test packs.
  const output = await packingAlone(async () =>
    execFileSync('npm', ['pack', '--dry-run', '--json'], {
      cwd: ROOT,
      env: npmEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const [packed] = JSON.parse(output);
  for (const [key, value] of figures.packFigures(packed)) measured.set(key, value);
}

for (const [key, value] of measured) process.stdout.write(`${key.padEnd(20)} ${figures.FIGURES[key].show(value)}\n`);
if (args.includes('--write')) {
  const changed = figures.writeFigures(ROOT, measured);
  process.stdout.write(changed.length > 0 ? `rewrote ${changed.join(', ')}\n` : 'the docs quote these already\n');
}
const problems = figures.staleFigures(ROOT, measured);
if (problems.length > 0) {
  process.stdout.write(
    `off by more than ${figures.FIGURE_TOLERANCE * 100} %:\n${problems.map((line) => `  ${line}\n`).join('')}`,
  );
  process.exit(1);
}
if (!args.includes('--install')) process.stdout.write('node_modules figures not checked: add --install\n');
