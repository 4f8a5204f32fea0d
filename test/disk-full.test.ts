/**
 * A full disk leaves no litter in the output folder: no 0-byte lock when the
 * run is refused for want of space, no temp file of a chart or result when the
 * space runs out mid-write, and the result is still saved elsewhere and named.
 * The disk is a 64 kB tmpfs this test mounts (root only; skipped otherwise).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readResultFile } from '../src/parent/results/result-file.js';
import { runCli, tempDir } from './support.js';

const ECHO = ['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '200ms'];
const DISK_BYTES = 160 * 1024;

const dir = tempDir();
const disk = join(dir, 'disk');
let cannotMount: string | false = false;

before(() => {
  mkdirSync(disk);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_BYTES}`, 'tmpfs', disk], { stdio: 'pipe' });
  } catch (error) {
    cannotMount = `cannot mount a small tmpfs here (${
      String((error as { stderr?: Buffer }).stderr ?? error)
        .trim()
        .split('\n')[0]
    })`;
  }
});

after(() => {
  if (!cannotMount) execFileSync('umount', [disk]);
  rmSync(dir, { recursive: true, force: true });
});

/** Fills the disk with a file of `bytes`, after emptying it. */
function fillDisk(bytes: number): void {
  for (const name of readdirSync(disk)) rmSync(join(disk, name), { recursive: true, force: true });
  writeFileSync(join(disk, 'filler'), Buffer.alloc(bytes));
}

/** Every file under the disk but the filler, with its size. */
function litter(): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name !== 'filler') found.push(`${relative(disk, path)} (${statSync(path).size} bytes)`);
    }
  };
  walk(disk);
  return found;
}

test('a disk with no space left: the run is refused with one line, exit 2, and leaves no 0-byte lock', async (t) => {
  if (cannotMount) return t.skip(cannotMount);
  fillDisk(DISK_BYTES);
  const out = await runCli([...ECHO, '--out', join(disk, 'r.json')], { cwd: dir, env: { TMPDIR: dir } });
  assert.equal(out.code, 2, out.stderr);
  assert.equal(out.stderr.trim().split('\n').length, 1, out.stderr);
  assert.match(
    out.stderr,
    /^wsbench: --out: cannot write in the folder of \S+r\.json \(no space left on the device\)$/m,
  );
  assert.deepEqual(litter(), []);
});

test('space runs out while the result is written: it is saved in the temp folder and named, and no temp file stays behind', async (t) => {
  if (cannotMount) return t.skip(cannotMount);
  // Room for the lock and the journal, not for the result JSON (about 35 kB for one echo cell).
  fillDisk(DISK_BYTES - 16 * 1024);
  const out = await runCli([...ECHO, '--out', join(disk, 'r.json')], { cwd: dir, env: { TMPDIR: dir } });
  assert.equal(out.code, 1, out.stderr);
  const saved = /^results: could not write \S+ \(no space left on the device\); saved to (\S+) instead$/m.exec(
    out.stderr,
  );
  assert.ok(saved, out.stderr);
  assert.equal(readResultFile(saved[1]!).cells[0]?.server, 'ws');
  assert.deepEqual(
    litter().filter((file) => /\.tmp |\.lock /.test(file)),
    [],
  );
});

test('space runs out while the charts are written: the result stays, and no chart temp file stays behind', async (t) => {
  if (cannotMount) return t.skip(cannotMount);
  // Room for the result JSON and its journal (each about 35 kB with every stack's settings), not for every chart beside them.
  fillDisk(10 * 1024);
  const out = await runCli([...ECHO, '--out', join(disk, 'r.json')], { cwd: dir, env: { TMPDIR: dir } });
  assert.match(out.stderr, /^charts and report not written: /m, out.stderr);
  assert.equal(readResultFile(join(disk, 'r.json')).cells[0]?.server, 'ws');
  assert.deepEqual(
    litter().filter((file) => /\.tmp |\.lock /.test(file)),
    [],
  );
});
