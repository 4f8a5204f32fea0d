/**
 * The fault-injection cases beyond wsbench's own servers and signals: servers
 * under test that misbehave (--server-cmd and --target servers that die, close
 * every connection, trickle their stats route, answer with a bogus handshake,
 * or leave the process group), and bad input that must be refused (k8s run
 * arguments, merge onto an input, a corrupt histogram, a bad scenario
 * declaration, a symlinked report folder, a full disk), plus the CI gate on a
 * cell that went ok -> skipped. Each case runs the real bin and returns what
 * went wrong, sorted the way fault-injection.mjs counts it (scripts/fault-run.mjs
 * says how). The cases of issue 29 are in scripts/fault-cases-hostile.mjs.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  caseDirs,
  faultShown,
  runBin as runBinIn,
  signalWsbenchOnceStarted,
  sleep,
  startTarget,
  until,
} from './fault-run.mjs';

export function faultCases({ bin, buildRoot, readResultFile }) {
  const FIXTURE = join(buildRoot, 'dist/test/fixtures/foreign-echo-server.js');
  const PREVIOUS = join(buildRoot, 'test/fixtures/echo-run.json');
  const scenarioFixture = (name) => join(buildRoot, `dist/test/fixtures/${name}.js`);
  const fixtureCommand = (mode, tag, extra = '') =>
    `${process.execPath} ${FIXTURE} --port {port} --mode ${mode} --tag ${tag}${extra}`;

  const runBin = (argv, options) => runBinIn(bin, argv, options);

  /** A server case: the fixture in `mode` as a --server-cmd (or as a --target the script starts and kills). */
  const serverCase = (
    name,
    mode,
    { duration = '4s', extra = '', clients = ['ws'], inject, wanted = 'fault', asTarget = false } = {},
  ) => ({
    name,
    async run() {
      const { dir, outside } = caseDirs();
      const out = join(dir, 'r.json');
      const tag = `wsbench-fault-${randomBytes(6).toString('hex')}`;
      let target = null;
      let serverArgs;
      if (asTarget) {
        // Its own tag: the script, not wsbench, owns it, so it is not counted as left behind.
        target = await startTarget(FIXTURE, `${tag}-target`);
        if (!target)
          return {
            code: null,
            hung: false,
            left: [],
            lost: 'the target fixture did not start',
            readAsOk: null,
            outside: [],
          };
        serverArgs = ['--target', `ws://127.0.0.1:${target.port}/`];
      } else {
        serverArgs = ['--server-cmd', `fixture=${fixtureCommand(mode, tag, extra)}`];
      }
      const argv = ['run', 'echo', ...serverArgs, '--clients', clients.join(','), '--duration', duration, '--out', out];
      const ran = await runBin(argv, {
        cwd: dir,
        tag: asTarget ? null : tag,
        inject: inject && ((child, stderr) => inject({ child, stderr, target, until })),
      });
      target?.child.kill('SIGKILL');
      const shown = ran.hung
        ? { lost: existsSync(out) ? null : 'hung, and no result written', readAsOk: null }
        : wanted === 'killed'
          ? { lost: null, readAsOk: null } // nothing in memory survives kill -9: only what it leaves running counts
          : faultShown(readResultFile, out, ran.code, wanted);
      return { code: ran.code, hung: ran.hung, left: ran.left, ...shown, outside: outside() };
    },
  });

  /** A refusal case: `make(dir)` gives the argv and a check of what must stay as it was; exit 2 with one line wanted. */
  const refusal = (name, make) => ({
    name,
    async run() {
      const dirs = caseDirs();
      const { argv, intact, wantCode = 2, wantLine, skip, hangMs } = make(dirs.dir, dirs);
      if (skip) return { code: null, hung: false, left: [], lost: null, readAsOk: null, outside: [], skipped: skip };
      const ran = await runBin(argv, { cwd: dirs.dir, ...(hangMs ? { hangMs } : {}) });
      const lines = ran.stderr.trim().split('\n').filter(Boolean);
      let readAsOk = null;
      if (ran.hung) readAsOk = null;
      else if (ran.code !== wantCode) readAsOk = `exit ${ran.code}, not ${wantCode}: ${lines.at(-1) ?? ''}`;
      else if (wantCode === 2 && lines.length !== 1) readAsOk = `${lines.length} lines on stderr, not one`;
      else if (wantLine && !wantLine.test(lines.at(-1) ?? ''))
        readAsOk = `said "${lines.at(-1) ?? ''}", not ${wantLine}`;
      const damage = intact?.();
      return {
        code: ran.code,
        hung: ran.hung,
        left: ran.left,
        lost: damage ?? null,
        readAsOk,
        outside: dirs.outside(),
      };
    },
  });

  const k8sArgs = [
    ['fanout', '--connections', '1e9'],
    ['fanout', '--duration', '5000'],
    ['fanout', '--bogus', '1'],
    ['nosuch'],
  ];
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
    serverCase('bogus Sec-WebSocket-Accept', 'bogus-accept', {
      duration: '2s',
      clients: ['ws', 'undici', 'deno', 'bun'],
    }),
    serverCase('--server-cmd daemonises (setsid)', 'setsid', { duration: '1s', wanted: 'measured' }),
    serverCase('kill -9 wsbench, setsid server', 'setsid', {
      duration: '20s',
      wanted: 'killed',
      inject: signalWsbenchOnceStarted('SIGKILL', 1500),
    }),
    refusal('k8s bad run arguments', () => ({
      argv: [
        'k8s',
        '--shards',
        '2',
        '--image',
        'img',
        '--',
        ...k8sArgs[k8sTurn++ % k8sArgs.length],
        '--target',
        'ws://server.bench:8080/',
      ],
    })),
    refusal('merge --out onto an input', (dir) => {
      const shard = join(dir, 's0.json');
      copyFileSync(PREVIOUS, shard);
      const before = readFileSync(shard);
      return {
        argv: ['merge', shard, '--out', shard],
        intact: () => (readFileSync(shard).equals(before) ? null : 'merge overwrote its input'),
      };
    }),
    refusal('corrupt histogram in report', (dir) => {
      const file = join(dir, 'r.json');
      const data = JSON.parse(readFileSync(PREVIOUS, 'utf8'));
      const h = data.cells[0].measurements.histograms.rtt;
      h.hdrBase64 = h.hdrBase64.slice(0, 40) + (h.hdrBase64[40] === 'A' ? 'B' : 'A') + h.hdrBase64.slice(41);
      writeFileSync(file, JSON.stringify(data));
      return { argv: ['report', file] };
    }),
    refusal('scenario with a bad metric', () => ({
      argv: [
        'run',
        scenarioFixture('scenario-bad-metric'),
        '--servers',
        'ws',
        '--clients',
        'ws',
        '--duration',
        '200ms',
      ],
    })),
    refusal('chart of a missing histogram', () => ({
      argv: [
        'run',
        scenarioFixture('scenario-chart-ghost'),
        '--servers',
        'ws',
        '--clients',
        'ws',
        '--duration',
        '200ms',
      ],
    })),
    refusal('report through a symlinked charts/', (dir, { elsewhere }) => {
      const file = join(dir, 'r.json');
      copyFileSync(PREVIOUS, file);
      mkdirSync(join(dir, 'r.report'));
      // Whatever it writes or deletes through the link lands in elsewhere/, which the case checksums.
      symlinkSync(elsewhere, join(dir, 'r.report', 'charts'));
      return { argv: ['report', file] };
    }),
    refusal('compare: a cell went ok -> skipped', (dir) => {
      const base = join(dir, 'base.json');
      const next = join(dir, 'next.json');
      copyFileSync(PREVIOUS, base);
      const data = JSON.parse(readFileSync(PREVIOUS, 'utf8'));
      const { scenario, server, client, params } = data.cells[0];
      data.cells[0] = {
        scenario,
        server,
        client,
        params,
        status: 'skipped',
        reason: 'uWebSockets.js is not available here',
        elapsedMs: 0,
      };
      writeFileSync(next, JSON.stringify(data));
      return { argv: ['compare', base, next, '--fail-on-regression', '10'], wantCode: 1 };
    }),
    refusal('disk full: no lock or .tmp left', (dir) => {
      const disk = join(dir, 'disk');
      mkdirSync(disk);
      if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk]).status !== 0)
        return { skip: 'cannot mount a tmpfs here' };
      writeFileSync(join(disk, 'filler'), Buffer.alloc(64 * 1024 - 512));
      return {
        argv: [
          'run',
          'echo',
          '--servers',
          'ws',
          '--clients',
          'ws',
          '--duration',
          '200ms',
          '--out',
          join(disk, 'r.json'),
        ],
        intact: () => {
          const litter = readdirSync(disk).filter((f) => f !== 'filler');
          spawnSync('umount', [disk]);
          return litter.length ? `left ${litter.join(', ')}` : null;
        },
      };
    }),
  ];
}
