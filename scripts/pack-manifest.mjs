#!/usr/bin/env node
/**
 * The package.json that `npm pack` and `npm publish` ship has no `scripts`.
 * Every script of the checkout runs files the package does not carry
 * (scripts/build.mjs, dist/test/, dist/bench/), and npm lists a tarball's
 * `prepare` among the scripts it warns about on `npm install ./wsbench-*.tgz`,
 * although it would only fail there. The checkout keeps them: `npm ci` in a
 * clone builds dist/ through `prepare`.
 *
 *   node scripts/pack-manifest.mjs strip     (prepack) package.json -> package.json.packing, scripts dropped
 *   node scripts/pack-manifest.mjs restore   (postpack) package.json.packing back to package.json
 *
 * npm reads the manifest it packs from the file on disk, so the file itself
 * is rewritten for the moment of the pack; the original is kept byte for byte
 * and renamed back. An interrupted pack leaves package.json.packing, which
 * git shows and the next pack refuses to overwrite.
 *
 * With the scripts gone, npm no longer runs `prepare` while it packs; `strip`
 * runs first what `prepare` ran (scripts/build.mjs --if-changed), so a pack
 * never ships a dist/ older than the sources.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = process.cwd();
const MANIFEST = join(ROOT, 'package.json');
const KEPT = join(ROOT, 'package.json.packing');

function fail(message) {
  process.stderr.write(`pack-manifest: ${message}\n`);
  process.exit(1);
}

function strip() {
  if (existsSync(KEPT)) {
    fail(
      `${KEPT} exists: an npm pack in this folder is running, or one was interrupted (then: mv package.json.packing package.json)`,
    );
  }
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-changed'], { stdio: 'inherit' });
  if (build.status !== 0) fail(`scripts/build.mjs --if-changed failed (exit ${build.status ?? build.signal})`);
  const original = readFileSync(MANIFEST);
  const manifest = JSON.parse(original.toString('utf8'));
  delete manifest.scripts;
  // The original first, under a name no pack is reading: once package.json changes, it is the only copy.
  writeFileSync(KEPT, original, { flag: 'wx' });
  writeFileSync(`${MANIFEST}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(`${MANIFEST}.tmp`, MANIFEST);
}

function restore() {
  if (!existsSync(KEPT)) fail(`${KEPT} is missing: nothing to restore (package.json is as the pack left it)`);
  renameSync(KEPT, MANIFEST);
}

const action = process.argv[2];
if (action === 'strip') strip();
else if (action === 'restore') restore();
else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
