/**
 * The fault-injection cases beyond wsbench's own servers and signals: servers
 * under test that misbehave (--server-cmd and --target servers that die, close
 * every connection, trickle their stats route, answer with a bogus handshake,
 * or leave the process group), and bad input that must be refused (k8s run
 * arguments, merge onto an input, a corrupt histogram, a bad scenario
 * declaration, a symlinked report folder, a full disk), plus the CI gate on a
 * cell that went ok -> skipped. Each case runs the real bin and returns what
 * went wrong, sorted the way fault-injection.mjs counts it:
 *   { code, hung, left: [process...], lost: string|null, readAsOk: string|null }
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** How long a run may take after its fault before it counts as hung. */
const HANG_MS = 90_000;

export function faultCases({ bin, buildRoot, readResultFile }) {
  const FIXTURE = join(buildRoot, 'dist/test/fixtures/foreign-echo-server.js');
  const PREVIOUS = join(buildRoot, 'test/fixtures/echo-run.json');
  const scenarioFixture = (name) => join(buildRoot, `dist/test/fixtures/${name}.js`);
  const fixtureCommand = (mode, tag, extra = '') => `${process.execPath} ${FIXTURE} --port {port} --mode ${mode} --tag ${tag}${extra}`;

  /** Runs the bin in its own process group; `inject(child, stderr)` once it has started. Hung after HANG_MS. */
  async function runBin(argv, { cwd, inject, tag } = {}) {
    const child = spawn(process.execPath, [bin, ...argv], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.stdout.on('data', (c) => (stdout += c));
    const exited = new Promise((r) => child.on('close', (code) => r(code)));
    if (inject) await inject(child, () => stderr);
    const hung = await Promise.race([exited.then(() => false), sleep(HANG_MS).then(() => true)]);
    if (hung) killQuietly(-child.pid, 'SIGKILL');
    const code = await exited;
    const left = await leftBehind(child.pid, tag);
    for (const line of left) killQuietly(Number(line.split(' ')[0]), 'SIGKILL');
    return { code, hung, left, stderr, stdout };
  }

  /** Waits for `pattern` on the run's stderr (a cell's progress line), at most 60 s. */
  async function until(getStderr, pattern) {
    for (let waited = 0; waited < 60_000 && !pattern.test(getStderr()); waited += 50) await sleep(50);
  }

  /** Cell statuses that are not ok, or what reads as ok although the server misbehaved. */
  function faultShown(out, code, wanted) {
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
      return { lost: null, readAsOk: code === 130 && result.interrupted ? null : `not marked interrupted (exit ${code})` };
    }
    if (ok.length > 0 || code === 0) return { lost: null, readAsOk: `${ok.map((c) => `${c.server} x ${c.client}`).join(', ') || 'the run'} read as ok (exit ${code})` };
    return { lost: null, readAsOk: null };
  }

  /** A server case: the fixture in `mode` as a --server-cmd (or as a --target the script starts and kills). */
  const serverCase = (name, mode, { duration = '4s', extra = '', clients = ['ws'], inject, wanted = 'fault', asTarget = false } = {}) => ({
    name,
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'wsbench-fault-'));
      const out = join(dir, 'r.json');
      const tag = `wsbench-fault-${randomBytes(6).toString('hex')}`;
      let target = null;
      let serverArgs;
      if (asTarget) {
        // Its own tag: the script, not wsbench, owns it, so it is not counted as left behind.
        target = await startTarget(FIXTURE, `${tag}-target`);
        if (!target) return { code: null, hung: false, left: [], lost: 'the target fixture did not start', readAsOk: null };
        serverArgs = ['--target', `ws://127.0.0.1:${target.port}/`];
      } else {
        serverArgs = ['--server-cmd', `fixture=${fixtureCommand(mode, tag, extra)}`];
      }
      const argv = ['run', 'echo', ...serverArgs, '--clients', clients.join(','), '--duration', duration, '--out', out];
      const ran = await runBin(argv, { cwd: dir, tag: asTarget ? null : tag, inject: inject && ((child, stderr) => inject({ child, stderr, target, until })) });
      target?.child.kill('SIGKILL');
      const shown = ran.hung ? { lost: existsSync(out) ? null : 'hung, and no result written', readAsOk: null }
        : wanted === 'killed' ? { lost: null, readAsOk: null } // nothing in memory survives kill -9: only what it leaves running counts
          : faultShown(out, ran.code, wanted);
      return { code: ran.code, hung: ran.hung, left: ran.left, ...shown };
    },
  });

  /** A refusal case: `make(dir)` gives the argv and a check of what must stay as it was; exit 2 with one line wanted. */
  const refusal = (name, make) => ({
    name,
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'wsbench-fault-'));
      const { argv, intact, wantCode = 2, skip } = make(dir);
      if (skip) return { code: null, hung: false, left: [], lost: null, readAsOk: null, skipped: skip };
      const ran = await runBin(argv, { cwd: dir });
      const lines = ran.stderr.trim().split('\n').filter(Boolean);
      let readAsOk = null;
      if (ran.code !== wantCode) readAsOk = `exit ${ran.code}, not ${wantCode}: ${lines.at(-1) ?? ''}`;
      else if (wantCode === 2 && lines.length !== 1) readAsOk = `${lines.length} lines on stderr, not one`;
      const damage = intact?.();
      return { code: ran.code, hung: ran.hung, left: ran.left, lost: damage ?? null, readAsOk };
    },
  });

  const k8sArgs = [['fanout', '--connections', '1e9'], ['fanout', '--duration', '5000'], ['fanout', '--bogus', '1'], ['nosuch']];
  let k8sTurn = 0;

  return [
    serverCase('--server-cmd dies mid-window', 'exit-after', { extra: ' --after-ms 1500' }),
    serverCase('--target killed -9 mid-window', 'echo', {
      asTarget: true,
      inject: async ({ stderr, target, until: wait }) => {
        await wait(stderr, /: started/);
        await sleep(2000);
        target.child.kill('SIGKILL');
      },
    }),
    serverCase('server closes every connection', 'close-all-after', { extra: ' --after-ms 1000', duration: '3s' }),
    serverCase('stats route trickles, then SIGINT', 'slow-stats', {
      duration: '30s',
      wanted: 'interrupted',
      inject: signalWsbenchOnceStarted('SIGINT', 2500),
    }),
    serverCase('bogus Sec-WebSocket-Accept', 'bogus-accept', { duration: '2s', clients: ['ws', 'undici', 'deno', 'bun'] }),
    serverCase('--server-cmd daemonises (setsid)', 'setsid', { duration: '1s', wanted: 'measured' }),
    serverCase('kill -9 wsbench, setsid server', 'setsid', {
      duration: '20s',
      wanted: 'killed',
      inject: signalWsbenchOnceStarted('SIGKILL', 1500),
    }),
    refusal('k8s bad run arguments', () => ({
      argv: ['k8s', '--shards', '2', '--image', 'img', '--', ...k8sArgs[k8sTurn++ % k8sArgs.length], '--target', 'ws://server.bench:8080/'],
    })),
    refusal('merge --out onto an input', (dir) => {
      const shard = join(dir, 's0.json');
      copyFileSync(PREVIOUS, shard);
      const before = readFileSync(shard);
      return { argv: ['merge', shard, '--out', shard], intact: () => (readFileSync(shard).equals(before) ? null : 'merge overwrote its input') };
    }),
    refusal('corrupt histogram in report', (dir) => {
      const file = join(dir, 'r.json');
      const data = JSON.parse(readFileSync(PREVIOUS, 'utf8'));
      const h = data.cells[0].measurements.histograms.rtt;
      h.hdrBase64 = h.hdrBase64.slice(0, 40) + (h.hdrBase64[40] === 'A' ? 'B' : 'A') + h.hdrBase64.slice(41);
      writeFileSync(file, JSON.stringify(data));
      return { argv: ['report', file] };
    }),
    refusal('scenario with a bad metric', () => ({ argv: ['run', scenarioFixture('scenario-bad-metric'), '--servers', 'ws', '--clients', 'ws', '--duration', '200ms'] })),
    refusal('chart of a missing histogram', () => ({ argv: ['run', scenarioFixture('scenario-chart-ghost'), '--servers', 'ws', '--clients', 'ws', '--duration', '200ms'] })),
    refusal('report through a symlinked charts/', (dir) => {
      const file = join(dir, 'r.json');
      copyFileSync(PREVIOUS, file);
      const elsewhere = join(dir, 'elsewhere');
      mkdirSync(elsewhere);
      writeFileSync(join(elsewhere, 'keep.txt'), 'not wsbench\'s');
      mkdirSync(join(dir, 'r.report'));
      symlinkSync(elsewhere, join(dir, 'r.report', 'charts'));
      return { argv: ['report', file], intact: () => (JSON.stringify(readdirSync(elsewhere)) === '["keep.txt"]' ? null : 'report wrote or deleted through the symlink') };
    }),
    refusal('compare: a cell went ok -> skipped', (dir) => {
      const base = join(dir, 'base.json');
      const next = join(dir, 'next.json');
      copyFileSync(PREVIOUS, base);
      const data = JSON.parse(readFileSync(PREVIOUS, 'utf8'));
      const { scenario, server, client, params } = data.cells[0];
      data.cells[0] = { scenario, server, client, params, status: 'skipped', reason: 'uWebSockets.js is not available here', elapsedMs: 0 };
      writeFileSync(next, JSON.stringify(data));
      return { argv: ['compare', base, next, '--fail-on-regression', '10'], wantCode: 1 };
    }),
    refusal('disk full: no lock or .tmp left', (dir) => {
      const disk = join(dir, 'disk');
      mkdirSync(disk);
      if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk]).status !== 0) return { skip: 'cannot mount a tmpfs here' };
      writeFileSync(join(disk, 'filler'), Buffer.alloc(64 * 1024 - 512));
      return {
        argv: ['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '200ms', '--out', join(disk, 'r.json')],
        intact: () => {
          const litter = readdirSync(disk).filter((f) => f !== 'filler');
          spawnSync('umount', [disk]);
          return litter.length ? `left ${litter.join(', ')}` : null;
        },
      };
    }),
  ];
}

/** The fixture echo server as a --target: started here, its port read from its first line. */
async function startTarget(fixture, tag) {
  const child = spawn(process.execPath, [fixture, '--port', '0', '--mode', 'echo', '--tag', tag], { stdio: ['ignore', 'pipe', 'ignore'] });
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

/** Processes of the run's group, or carrying its tag anywhere (a server that left the group), a few seconds after it ended. */
async function leftBehind(pgid, tag) {
  let left = [];
  for (let waited = 0; waited <= 5000; waited += 100) {
    left = scan(pgid, tag);
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

/** An inject that signals wsbench `afterMs` after its cell started. */
function signalWsbenchOnceStarted(signal, afterMs) {
  return async ({ child, stderr, until: wait }) => {
    await wait(stderr, /: started/);
    await sleep(afterMs);
    killQuietly(child.pid, signal);
  };
}

function killQuietly(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}
