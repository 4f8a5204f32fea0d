/**
 * What every fault-injection case shares: a fresh folder per case with a
 * sibling "elsewhere" whose files are checksummed before and after (anything
 * written or deleted there is a file wsbench had no business touching), the
 * real bin run in a process group of its own with a deadline, and what it
 * left behind afterwards: processes of its group or carrying the case's tag,
 * and cgroups named after its pid.
 *
 * A case's outcome, as fault-injection.mjs counts it:
 *   { code, hung, left: [what...], lost: string|null, readAsOk: string|null, outside: [path...] }
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, lstatSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** How long a run may take after its fault before it counts as hung. */
export const HANG_MS = 90_000;

export function killQuietly(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already: the check after the run tells whether that mattered.
  }
}

/**
 * A case's folders: `dir` to work in (its output folder), and `elsewhere` beside it, holding files
 * that are not wsbench's. `outside()` names what changed there since (written, deleted, replaced).
 */
export function caseDirs() {
  const base = mkdtempSync(join(tmpdir(), 'wsbench-fault-'));
  const dir = join(base, 'work');
  const elsewhere = join(base, 'elsewhere');
  mkdirSync(dir);
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'victim.txt'), "not wsbench's: must stay as it is\n");
  writeFileSync(join(elsewhere, 'keep.json'), '{"mine": true}\n');
  const before = checksums(elsewhere);
  return {
    base,
    dir,
    elsewhere,
    outside() {
      const after = checksums(elsewhere);
      const names = [...new Set([...before.keys(), ...after.keys()])].sort();
      return names
        .filter((n) => before.get(n) !== after.get(n))
        .map((n) => `${join(elsewhere, n)} ${!after.has(n) ? 'deleted' : !before.has(n) ? 'created' : 'changed'}`);
    },
  };
}

/** Every entry under `root` (recursively), by relative path: a checksum of its content, or of its link target. */
function checksums(root, prefix = '', into = new Map()) {
  for (const name of readdirSync(join(root, prefix))) {
    const rel = join(prefix, name);
    const path = join(root, rel);
    const stat = lstatSync(path);
    if (stat.isDirectory()) checksums(root, rel, into);
    else
      into.set(
        rel,
        stat.isSymbolicLink()
          ? `link:${readlinkSync(path)}`
          : createHash('sha256').update(readFileSync(path)).digest('hex'),
      );
  }
  return into;
}

/**
 * Runs the bin in its own process group; `inject(child, stderr)` once it has started. Hung after `hangMs`
 * (then killed). Returns what it printed and what it left: processes of its group or carrying `tag`, and its cgroups.
 */
export async function runBin(bin, argv, { cwd, inject, tag, env, hangMs = HANG_MS, stdin = 'ignore' } = {}) {
  const child = spawn(process.execPath, [bin, ...argv], {
    cwd,
    stdio: [stdin, 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, ...env },
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.stdout.on('data', (c) => (stdout += c));
  const exited = new Promise((r) => child.on('close', (code, signal) => r({ code, signal })));
  if (inject) await inject(child, () => stderr);
  const hung = await Promise.race([exited.then(() => false), sleep(hangMs).then(() => true)]);
  if (hung) killQuietly(-child.pid, 'SIGKILL');
  const { code, signal } = await exited;
  const left = await leftBehind(child.pid, tag);
  for (const line of left) if (/^\d+ /.test(line)) killQuietly(Number(line.split(' ')[0]), 'SIGKILL');
  return { code: code ?? signal, hung, left, stderr, stdout, pid: child.pid };
}

/** Waits until `pattern` shows on the run's stderr (a cell's progress line), at most 60 s. */
export async function until(getStderr, pattern, ms = 60_000) {
  for (let waited = 0; waited < ms && !pattern.test(getStderr()); waited += 50) await sleep(50);
  return pattern.test(getStderr());
}

/**
 * Waits until the run's journal (`<out>.journal`) records that a cell's measurement window opened, at most `ms`:
 * a signal sent before then finds nothing measured yet, and a case that wants the cut cell's numbers must not
 * race the warmup on a loaded machine.
 */
export async function untilWindowOpen(out, ms = 60_000) {
  const opened = () => {
    try {
      return readFileSync(`${out}.journal`, 'utf8').includes('"type":"window-open"');
    } catch {
      return false;
    }
  };
  for (let waited = 0; waited < ms && !opened(); waited += 50) await sleep(50);
  return opened();
}

/** Processes of the run's group or carrying its tag, and cgroups named after its pid, a few seconds after it ended. */
export async function leftBehind(pgid, tag, waitMs = 10_000) {
  let left = [];
  for (let waited = 0; waited <= waitMs; waited += 100) {
    left = [...scan(pgid, tag), ...cgroupsOf(pgid)];
    if (left.length === 0) break;
    await sleep(100);
  }
  return left;
}

function scan(pgid, tag) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (Number(group) === pgid || (tag && cmdline.includes(tag))) found.push(`${entry} ${cmdline.slice(0, 100)}`);
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}

/** The cgroups wsbench process `pid` made (wsbench-<pid>-N) still there, under any cgroup v2 mount. */
export function cgroupsOf(pid) {
  let mounts = [];
  try {
    mounts = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .filter((l) => l.split(' - ')[1]?.startsWith('cgroup2 '))
      .map((l) => l.split(' ')[4]);
  } catch {
    return [];
  }
  const found = [];
  const walk = (dir, depth) => {
    let entries = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      if (entry.name.startsWith(`wsbench-${pid}-`)) found.push(`cgroup ${join(dir, entry.name)}`);
      else if (depth < 4) walk(join(dir, entry.name), depth + 1);
    }
  };
  for (const mount of mounts) walk(mount, 0);
  return found;
}

/** Cell statuses that are not ok, or what reads as ok although the server misbehaved. */
export function faultShown(readResultFile, out, code, wanted) {
  let result;
  try {
    result = readResultFile(out);
  } catch (error) {
    return { lost: `no valid result file (exit ${code}): ${error.message.split('\n')[0]}`, readAsOk: null };
  }
  const run = result.cells.filter((c) => c.status !== 'skipped');
  if (run.length === 0) return { lost: null, readAsOk: `every cell was skipped (exit ${code})` };
  const ok = run.filter((c) => c.status === 'ok');
  if (wanted === 'measured') return { lost: null, readAsOk: null };
  if (wanted === 'interrupted') {
    return {
      lost: null,
      readAsOk: code === 130 && result.interrupted ? null : `not marked interrupted (exit ${code})`,
    };
  }
  if (ok.length > 0 || code === 0)
    return {
      lost: null,
      readAsOk: `${ok.map((c) => `${c.server} x ${c.client}`).join(', ') || 'the run'} read as ok (exit ${code})`,
    };
  return { lost: null, readAsOk: null };
}

/** The fixture echo server as a --target: started here, its port read from its first line. */
export async function startTarget(fixture, tag) {
  const child = spawn(process.execPath, [fixture, '--port', '0', '--mode', 'echo', '--tag', tag], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let text = '';
  child.stdout.on('data', (c) => (text += c));
  for (let waited = 0; waited < 10_000; waited += 50) {
    const port = /listening on 127\.0\.0\.1:(\d+)/.exec(text)?.[1];
    if (port) return { child, port: Number(port) };
    await sleep(50);
  }
  child.kill('SIGKILL');
  return null;
}

/** An inject that signals wsbench `afterMs` after its cell started. */
export function signalWsbenchOnceStarted(signal, afterMs) {
  return async ({ child, stderr, until: wait }) => {
    await wait(stderr, /: started/);
    await sleep(afterMs);
    killQuietly(child.pid, signal);
  };
}
