#!/usr/bin/env node
/**
 * Builds dist/ from scratch: removes it, compiles with tsc, then records a
 * digest of everything the compile read (dist/.build-inputs).
 *
 * With --if-changed it first compares that digest with the inputs as they are
 * now and builds only when they differ. `prepare` runs it that way: npm runs
 * `prepare` on `npm ci` in a clone, and again when `npx wsbench` in a clone
 * installs the folder into npx's cache, which rebuilt an up-to-date dist/ (38 s
 * on a 2-core machine) before the first command ran.
 *
 * A digest of contents rather than file times: a checkout, a copy or `touch`
 * changes times without changing the build, and a deleted source changes no
 * remaining file's time. The digest is written only after tsc succeeds, so a
 * failed or interrupted build, or a dist/ compiled by hand with `npx tsc`,
 * never reads as current.
 *
 * Runs from the package root (npm runs scripts there); plain JavaScript, since
 * it runs before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';

const ROOT = process.cwd();
const OUT_DIR = join(ROOT, 'dist');
const STAMP = join(OUT_DIR, '.build-inputs');
const TSCONFIG = join(ROOT, 'tsconfig.json');

/** Every file under `directory`, as sorted paths relative to the root with / separators. */
function filesUnder(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      relative(ROOT, join(entry.parentPath ?? entry.path, entry.name))
        .split(sep)
        .join('/'),
    );
}

/** sha256 over the compiler's version, tsconfig.json, and every file in the folders tsconfig includes. */
function inputsDigest(tscPackageJson) {
  const hash = createHash('sha256');
  hash.update(`typescript ${JSON.parse(readFileSync(tscPackageJson, 'utf8')).version}\0`);
  const tsconfig = readFileSync(TSCONFIG);
  hash.update(tsconfig);
  // A plain JSON tsconfig is the one this script reads; one with comments makes every build a full one.
  let include;
  try {
    include = JSON.parse(tsconfig.toString('utf8')).include;
  } catch {
    return null;
  }
  if (!Array.isArray(include)) return null;
  const files = include.flatMap((folder) => filesUnder(join(ROOT, folder))).sort();
  for (const file of files) {
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(join(ROOT, file)));
  }
  return hash.digest('hex');
}

const ifChanged = process.argv.includes('--if-changed');
let tscPackageJson;
try {
  tscPackageJson = createRequire(join(ROOT, 'package.json')).resolve('typescript/package.json');
} catch {
  console.error('build: typescript is not installed (a devDependency: npm ci in the clone installs it)');
  process.exit(1);
}
const digest = inputsDigest(tscPackageJson);

if (ifChanged && digest !== null && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === digest) {
  console.error('build: dist/ is current (its sources are unchanged since it was built), not rebuilt');
  process.exit(0);
}

rmSync(OUT_DIR, { recursive: true, force: true });
const tsc = join(tscPackageJson, '..', 'bin', 'tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', TSCONFIG], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
if (digest !== null) writeFileSync(STAMP, `${digest}\n`);
