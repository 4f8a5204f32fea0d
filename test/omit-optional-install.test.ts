/**
 * `npm install --omit=optional` leaves out the Bun and Deno packages (about
 * 200 MB). wsbench still runs: their cells are skipped with the reason, or,
 * when a `bun` or `deno` is on PATH, that one runs and the result says which.
 *
 * Slow (about a minute): it installs the tarball with --omit=optional and runs the Bun and Deno cells' refusals.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './support.js';
import { packAndInstall, type PackedInstall } from './packed-install.js';
import { diskUsage, FIGURE_TOLERANCE, quotedFigures, staleFigures } from './package-figures.js';
import type { BenchResult } from '../src/parent/index.js';
import type { RuntimeInfo } from '../src/shared/types/result-types.js';

/** The Bun this checkout installed, put on PATH as a system one would be. */
const CHECKOUT_BUN = join(REPO_ROOT, 'node_modules', '@oven', 'bun-linux-x64', 'bin', 'bun');

let installed: PackedInstall;
/** A PATH with node and nothing else: no bun or deno the machine may have. */
let bareBin: string;
before(async () => {
  installed = await packAndInstall({ omitOptional: true });
  bareBin = join(installed.projectDir, 'bare-bin');
  mkdirSync(bareBin);
  symlinkSync(process.execPath, join(bareBin, 'node'));
});
after(() => installed?.remove());

const cellsOf = (result: BenchResult): Record<string, string> =>
  Object.fromEntries(
    result.cells.map((c) => [`${c.server}/${c.client}`, c.status === 'ok' ? 'ok' : `${c.status}: ${c.reason}`]),
  );

test(`the size the docs quote for node_modules with --omit=optional is this install's, within ${FIGURE_TOLERANCE * 100} %`, (t) => {
  const omitted = diskUsage(join(installed.projectDir, 'node_modules'));
  t.diagnostic(`node_modules: ${(omitted / 1024 / 1024).toFixed(1)} MiB`);
  assert.ok(
    quotedFigures(REPO_ROOT).some((figure) => figure.key === 'nm-omit'),
    'the docs quote it',
  );
  // The figure is written from a full install (what its optional packages take away); this install is the real thing.
  assert.deepEqual(staleFigures(REPO_ROOT, new Map([['nm-omit', omitted]])), []);
});

test('installed with --omit=optional: no Bun or Deno package, and their cells are skipped with the reason while ws runs', async (t) => {
  t.diagnostic(`npm ci --omit=optional from the tarball (offline) ${installed.installSeconds.toFixed(1)} s`);
  for (const name of ['@oven/bun-linux-x64', '@deno/linux-x64-glibc'])
    assert.ok(!existsSync(join(installed.projectDir, 'node_modules', name)), `${name} is not installed`);
  const out = join(installed.projectDir, 'r.json');
  const outcome = await installed.wsbench(
    ['run', 'echo', '--servers', 'ws,bun,deno', '--clients', 'ws', '--duration', '1s', '--out', out],
    { env: { PATH: bareBin } },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const missing = (runtime: string, pkg: string): string =>
    `skipped: server ${runtime} unavailable: ${runtime} not found: ${pkg} is not installed (an optional dependency: npm installs it unless optional dependencies are omitted) and no ${runtime} is on PATH; or set WSBENCH_${runtime.toUpperCase()} to a ${runtime} binary`;
  assert.deepEqual(cellsOf(result), {
    'ws/ws': 'ok',
    'bun/ws': missing('bun', '@oven/bun-linux-x64'),
    'deno/ws': missing('deno', '@deno/linux-x64-glibc'),
  });
  assert.match(outcome.stdout, /bun not found: @oven\/bun-linux-x64 is not installed/, 'the table shows the reason');
});

test('installed with --omit=optional and a bun on PATH: that bun runs, and the result records its path, version and source', {
  skip:
    !existsSync(CHECKOUT_BUN) &&
    `no Bun at ${CHECKOUT_BUN} to put on PATH (this checkout was installed without optional dependencies)`,
}, async () => {
  const pathBin = join(installed.projectDir, 'path-bin');
  mkdirSync(pathBin);
  symlinkSync(CHECKOUT_BUN, join(pathBin, 'bun'));
  const env = { PATH: `${pathBin}:${bareBin}` };
  const out = join(installed.projectDir, 'on-path.json');
  const outcome = await installed.wsbench(
    ['run', 'echo', '--servers', 'bun,deno', '--clients', 'ws', '--duration', '1s', '--out', out],
    { env },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const cells = cellsOf(result);
  assert.equal(cells['bun/ws'], 'ok');
  assert.match(cells['deno/ws']!, /^skipped: server deno unavailable: deno not found/);
  const bun = result.environment.runtimes?.find((r) => r.name === 'bun');
  assert.deepEqual({ ...bun, version: undefined }, {
    name: 'bun',
    available: true,
    version: undefined,
    path: join(pathBin, 'bun'),
    source: 'bun on PATH',
  } satisfies Partial<RuntimeInfo>);
  assert.match(bun?.version ?? '', /^\d+\.\d+\.\d+/);

  const list = await installed.wsbench(['list'], { env });
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, new RegExp(`^ {2}bun +\\d+\\.\\d+\\.\\d+\\S* +bun on PATH +${pathBin}/bun$`, 'm'));
});
