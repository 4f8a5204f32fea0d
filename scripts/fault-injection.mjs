#!/usr/bin/env node
/**
 * Faults injected into real runs on loopback: kill -9 of the server, of a
 * client, of wsbench itself; SIGINT, SIGTERM and SIGHUP to wsbench and to its
 * whole process group; a server that hangs in a busy loop. Each case runs in
 * a fresh folder beside an "elsewhere" folder whose files are checksummed
 * before and after (scripts/fault-run.mjs). After each run it checks /proc for
 * anything of the run's process group still alive (children and their
 * `wsbench-watchdog` shell loops stay in wsbench's group) and for cgroups
 * named after its pid, and that no result was lost:
 *   - a killed server or client, a hung server: the file is written, valid, and
 *     the cell failed with a reason, keeping what the clients measured;
 *   - SIGINT, SIGTERM or SIGHUP: the file is written, valid, marked interrupted,
 *     the cut cell kept its numbers, and the exit code is 130 (129 for SIGHUP);
 *   - kill -9 of wsbench: nothing in memory can survive that, so the previous
 *     result at --out must be intact (never half-written), `wsbench recover`
 *     must rebuild what its journal holds, and the next run with the same --out
 *     must go ahead (its lock is stale).
 * Then the cases of scripts/fault-cases.mjs (servers under test that misbehave:
 * each cell must show the fault, never `ok`; bad input that must be refused
 * with one line) and of scripts/fault-cases-hostile.mjs (issue 29: files
 * wsbench must not write through, special files it must not read, hostile
 * requests and text, secrets, faults of churn and reconnect storms, cgroups
 * and locks left, impossible numbers, messages).
 *
 *   node scripts/fault-injection.mjs [--bin bin/wsbench.js] [--runs 20] [--only TEXT]
 *
 * --runs N: N rounds of every case (default 1); --only TEXT: only the cases whose name holds TEXT. Ends with
 * `N runs, H hangs, P processes, cgroups or locks left, R results lost, K faults read as ok, F files written
 * or deleted outside the output`; exit 1 unless all five are 0. Needs a build (npm run build): it runs the
 * bin and the compiled test fixtures.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const bin = resolve(option('bin', fileURLToPath(new URL('../bin/wsbench.js', import.meta.url))));
const buildRoot = dirname(dirname(bin));
const MISBEHAVING = join(buildRoot, 'dist/test/fixtures/misbehaving-server.js');
const PREVIOUS = join(buildRoot, 'test/fixtures/echo-run.json');
const { readResultFile } = await import(pathToFileURL(join(buildRoot, 'dist/src/parent/results/result-file.js')).href);
const { hasEstablishedConnection: connected } = await import(
  pathToFileURL(join(buildRoot, 'dist/test/established-connection.js')).href
);
const { faultCases } = await import('./fault-cases.mjs');
const { hostileCases } = await import('./fault-cases-hostile.mjs');
const { caseDirs, cgroupsOf } = await import('./fault-run.mjs');

/** Each fault, how many times, and what the run must leave. */
const FAULTS = [
  { name: 'kill -9 server', times: 3, inject: (run) => kill(run.server, 'SIGKILL'), expect: 'failed' },
  // Two client processes: the numbers of the one killed die with it, the other's must be kept.
  {
    name: 'kill -9 client',
    times: 3,
    inject: (run) => kill(run.client, 'SIGKILL'),
    expect: 'failed',
    extra: ['--client-procs', '2', '--connections', '2'],
  },
  { name: 'kill -9 wsbench', times: 3, inject: (run) => kill(run.pid, 'SIGKILL'), expect: 'previous-intact' },
  { name: 'SIGINT to wsbench', times: 2, inject: (run) => kill(run.pid, 'SIGINT'), expect: 'interrupted' },
  { name: 'SIGINT to the group', times: 2, inject: (run) => kill(-run.pid, 'SIGINT'), expect: 'interrupted' },
  { name: 'SIGTERM to wsbench', times: 2, inject: (run) => kill(run.pid, 'SIGTERM'), expect: 'interrupted' },
  { name: 'SIGTERM to the group', times: 2, inject: (run) => kill(-run.pid, 'SIGTERM'), expect: 'interrupted' },
  // A terminal that closes hangs up the whole group; wsbench answers it as SIGTERM, and says so by its exit code.
  { name: 'SIGHUP to wsbench', times: 1, inject: (run) => kill(run.pid, 'SIGHUP'), expect: 'interrupted', code: 129 },
  {
    name: 'SIGHUP to the group',
    times: 2,
    inject: (run) => kill(-run.pid, 'SIGHUP'),
    expect: 'interrupted',
    code: 129,
  },
  {
    name: 'hung server (busy loop)',
    times: 3,
    inject: () => undefined,
    expect: 'failed',
    scenario: MISBEHAVING,
    extra: ['--fault', 'spin'],
    duration: '3s',
  },
];
const SERVERS = ['ws', 'uws'];
const rounds = Number(option('runs', '1'));

function kill(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already: the check after the run tells whether that mattered.
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Live, non-zombie processes of group `pgid`, from /proc. */
function groupMembers(pgid) {
  const members = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) !== pgid || state === 'Z') continue;
      members.push(
        `${entry} ${readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim().slice(0, 100)}`,
      );
    } catch {
      // Ended while we looked.
    }
  }
  return members;
}

/** Watchdog loops watching any of `pids`, wherever they are (their arguments name parent and child). */
function watchdogsOf(pids) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const at = argv.indexOf('wsbench-watchdog');
      if (at >= 0 && argv.slice(at + 1).some((a) => pids.has(Number(a))))
        found.push(`${entry} wsbench-watchdog ${argv.slice(at + 1).join(' ')}`);
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}

/** Children of `pid` whose WSBENCH_ROLE is `role` or starts with it (`client 1`). */
function childrenWithRole(pid, role) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      if (
        readFileSync(`/proc/${entry}/environ`, 'utf8')
          .split('\0')
          .some((v) => v.startsWith(`WSBENCH_ROLE=${role}`))
      )
        found.push(Number(entry));
    } catch {
      // Ended while we looked.
    }
  }
  return found.sort((x, y) => x - y);
}

async function oneRun(fault, index) {
  const { dir, outside } = caseDirs();
  const out = join(dir, 'r.json');
  if (fault.expect === 'previous-intact') copyFileSync(PREVIOUS, out);
  const before = fault.expect === 'previous-intact' ? readFileSync(out) : null;
  const server = SERVERS[index % SERVERS.length];
  const child = spawn(
    process.execPath,
    [
      bin,
      'run',
      fault.scenario ?? 'echo',
      ...(fault.extra ?? []),
      '--servers',
      server,
      '--clients',
      'ws',
      '--duration',
      fault.duration ?? '20s',
      '--out',
      out,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, as a terminal gives it
    },
  );
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.stdout.resume();
  const exited = new Promise((r) => child.on('close', (code, signal) => r({ code, signal })));
  const run = { pid: child.pid, server: null, client: null };
  const seen = new Set([child.pid]);
  const clientCount = fault.extra?.includes('--client-procs')
    ? Number(fault.extra[fault.extra.indexOf('--client-procs') + 1])
    : 1;
  // Faults belong in the measurement window: it opens once every client has connected.
  const deadline = Date.now() + 30_000;
  let clients = [];
  while (Date.now() < deadline) {
    run.server ??= childrenWithRole(child.pid, 'server')[0] ?? null;
    clients = childrenWithRole(child.pid, 'client');
    if (run.server !== null && clients.length === clientCount && clients.every(connected)) break;
    await sleep(50);
  }
  run.client = clients[0] ?? null;
  for (const pid of [run.server, ...clients]) if (pid) seen.add(pid);
  await sleep(1000);
  if (run.server === null || run.client === null) {
    kill(-child.pid, 'SIGKILL');
    return {
      code: null,
      hung: false,
      left: [],
      lost: `the run never started its server and client: ${stderr.trim().split('\n').at(-1)}`,
      readAsOk: null,
      outside: outside(),
    };
  }
  fault.inject(run);
  const hung = await Promise.race([exited.then(() => false), sleep(60_000).then(() => true)]);
  if (hung) kill(-child.pid, 'SIGKILL');
  const { code } = await exited;

  // Watchdogs notice a dead parent within half a second; give the group a few to empty.
  let left = [];
  for (let waited = 0; waited <= 5000; waited += 100) {
    left = [...new Set([...groupMembers(child.pid), ...watchdogsOf(seen), ...cgroupsOf(child.pid)])];
    if (left.length === 0) break;
    await sleep(100);
  }
  const problem = verdict(fault, out, before, code, dir);
  for (const line of left) if (/^\d+ /.test(line)) kill(Number(line.split(' ')[0]), 'SIGKILL');
  // A cell that reads ok despite its fault is its own count; everything else wrong is a result lost.
  const readAsOk = problem?.startsWith('the cell is ok') ? problem : null;
  return { code, hung, left, lost: readAsOk ? null : problem, readAsOk, outside: outside() };
}

/** Null when nothing was lost; else what was. */
function verdict(fault, out, before, code, dir) {
  if (fault.expect === 'previous-intact') {
    if (!existsSync(out) || !readFileSync(out).equals(before)) return 'the previous result file was changed';
    if (readdirSync(dir).some((f) => f.endsWith('.tmp'))) return 'a half-written temp file was left';
    // What it measured is in its journal: recover must rebuild it (and so free --out for the next run).
    if (existsSync(`${out}.journal`)) {
      const recovered = spawnSync(process.execPath, [bin, 'recover', `${out}.journal`], { encoding: 'utf8' });
      if (recovered.status !== 0)
        return `recover of its journal failed (exit ${recovered.status}): ${recovered.stderr.trim().split('\n').at(-1)}`;
      try {
        readResultFile(out);
      } catch (error) {
        return `recover wrote no valid result: ${error.message.split('\n')[0]}`;
      }
    }
    const next = spawnSync(
      process.execPath,
      [bin, 'run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '300ms', '--out', out],
      { encoding: 'utf8' },
    );
    return next.status === 0
      ? null
      : `the next run with the same --out failed: ${next.stderr.trim().split('\n').at(-1)}`;
  }
  let result;
  try {
    result = readResultFile(out);
  } catch (error) {
    return `no valid result file (exit ${code}): ${error.message}`;
  }
  const [cell] = result.cells;
  if (fault.expect === 'interrupted') {
    if (code !== (fault.code ?? 130) || !result.interrupted)
      return `not marked interrupted with exit ${fault.code ?? 130} (exit ${code})`;
    if (cell?.measurements === undefined) return 'the cut cell lost its numbers';
    return null;
  }
  if (code !== 1 || cell?.status !== 'failed' || !cell.reason)
    return `the cell is ${cell?.status} (exit ${code}), not failed with a reason`;
  if (cell.measurements === undefined) return `the cell lost what the clients measured (${cell.reason})`;
  return null;
}

const own = FAULTS.flatMap((f) => Array.from({ length: f.times }, () => f)).map((fault, i) => ({
  name: fault.name,
  run: () => oneRun(fault, i),
}));
const only = option('only', '');
const context = { bin, buildRoot, readResultFile };
const cases = [...own, ...faultCases(context), ...hostileCases(context)].filter((c) => c.name.includes(only));
const counts = { runs: 0, hangs: 0, left: 0, lost: 0, readAsOk: 0, outside: 0, skipped: 0 };
for (let round = 0; round < rounds; round++) {
  for (const c of cases) {
    const started = Date.now();
    const outcome = await c.run();
    counts.runs += 1;
    if (outcome.skipped) counts.skipped += 1;
    if (outcome.hung) counts.hangs += 1;
    counts.left += outcome.left.length;
    if (outcome.lost) counts.lost += 1;
    if (outcome.readAsOk) counts.readAsOk += 1;
    const outside = outcome.outside ?? [];
    counts.outside += outside.length;
    const problems = [
      outcome.hung ? 'HUNG' : null,
      outcome.lost ? `lost: ${outcome.lost}` : null,
      outcome.readAsOk ? `read as ok: ${outcome.readAsOk}` : null,
      outcome.left.length ? `left: ${outcome.left.join('; ')}` : null,
      outside.length ? `outside the output: ${outside.join('; ')}` : null,
    ].filter(Boolean);
    const status = outcome.skipped
      ? `skipped (${outcome.skipped})`
      : problems.length === 0
        ? 'ok'
        : `PROBLEM ${problems.join('; ')}`;
    console.log(
      `${String(counts.runs).padStart(3)}. ${c.name.padEnd(44)} exit ${String(outcome.code).padEnd(4)} ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${status}`,
    );
  }
}
console.log(
  `${counts.runs} runs (${rounds} round${rounds === 1 ? '' : 's'} of ${cases.length} cases${counts.skipped ? `, ${counts.skipped} skipped` : ''}), ` +
    `${counts.hangs} hangs, ${counts.left} processes, cgroups or locks left, ${counts.lost} results lost, ${counts.readAsOk} faults read as ok, ` +
    `${counts.outside} files written or deleted outside the output`,
);
process.exit(
  counts.hangs === 0 && counts.left === 0 && counts.lost === 0 && counts.readAsOk === 0 && counts.outside === 0 ? 0 : 1,
);
