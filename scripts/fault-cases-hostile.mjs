/**
 * The fault-injection cases of issue 29, as a careless or hostile user would
 * try wsbench: files it must not write through or over (a symlinked journal, a
 * file at <out>.journal that is not a journal), special files it must not read
 * (a FIFO, /dev/zero) in report, compare, recover and --ca, requests to the
 * live views with another Host, a --dashboard name that must not be looked up,
 * hostile text in Vega and Markdown, secrets in --target, faults of churn and
 * reconnect storms, cgroups and locks left after SIGKILL, SIGHUP and SIGINT, one
 * measurement taken two ways (srv back), impossible numbers (a shard with no
 * connection, a merged window too short for a rate), and messages that must
 * name the real problem. Then issue 42's (D1-D7): merge's exit code with a
 * shard's errors, a plan that is a link to a password file, --format files in
 * /proc or on the run's own files, --slo bounds no cell can keep, a result
 * with negative counts, and a Chromium that hangs on --version; and its D8-D14:
 * a dead server's cell that must end then, folders the system will not make, a
 * scenario that never loads, IPv6 loopback, a URL fragment, and a reconnect
 * storm's server that drops connections besides the restart. Each returns what
 * went wrong the way
 * scripts/fault-run.mjs says; every case runs in its own folder, its
 * "elsewhere" sibling checksummed.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  caseDirs,
  faultShown,
  killQuietly,
  runBin as runBinIn,
  sleep,
  startTarget,
  until,
  untilWindowOpen,
} from './fault-run.mjs';

const NOTHING = { code: null, hung: false, left: [], lost: null, readAsOk: null, outside: [] };
/** Reading a special file must end at once: longer than this is a hang. */
const SPECIAL_FILE_HANG_MS = 20_000;
/** A cell whose server died a second into a 30 s window ends well before the window would have: this is "well before". */
const DEAD_SERVER_END_MS = 20_000;

export function hostileCases({ bin, buildRoot, readResultFile }) {
  const fixture = (name) => join(buildRoot, `dist/test/fixtures/${name}.js`);
  const ECHO = fixture('foreign-echo-server');
  const FRONT = fixture('faulty-front-server');
  const PREVIOUS = join(buildRoot, 'test/fixtures/echo-run.json');
  const node = process.execPath;
  const runBin = (argv, options) => runBinIn(bin, argv, options);
  const tagged = () => `wsbench-fault-${randomBytes(6).toString('hex')}`;
  const quickRun = (out, extra = []) => [
    'run',
    'echo',
    '--servers',
    'ws',
    '--clients',
    'ws',
    '--duration',
    '300ms',
    ...extra,
    '--out',
    out,
  ];

  /** A case that runs `body(dirs)` and adds what changed in elsewhere/ to what it found. */
  const hostile = (name, body) => ({
    name,
    async run() {
      const dirs = caseDirs();
      const outcome = await body(dirs);
      return { ...NOTHING, ...outcome, outside: [...(outcome.outside ?? []), ...dirs.outside()] };
    },
  });

  /** Refused at once with one line: exit 2, one line on stderr (matching `line` when given), within the hang deadline. */
  const refused = (name, make, line) =>
    hostile(name, async (dirs) => {
      const { argv, skip } = make(dirs);
      if (skip) return { skipped: skip };
      const ran = await runBin(argv, { cwd: dirs.dir, hangMs: SPECIAL_FILE_HANG_MS });
      const lines = ran.stderr.trim().split('\n').filter(Boolean);
      const wrong = ran.hung
        ? null
        : ran.code !== 2
          ? `exit ${ran.code}, not 2: ${lines.at(-1) ?? ''}`
          : lines.length !== 1
            ? `${lines.length} lines on stderr, not one`
            : line && !line.test(lines[0])
              ? `said "${lines[0]}", not ${line}`
              : null;
      return { code: ran.code, hung: ran.hung, left: ran.left, readAsOk: wrong };
    });

  /** A file at `path` that is not wsbench's, and the check that it is still there, as it was. */
  const notOurs = (path, make) => {
    make();
    const before = lstatSync(path).isSymbolicLink() ? `link:${readlinkSync(path)}` : readFileSync(path, 'utf8');
    return () => {
      if (!existsSync(path) && !isLink(path)) return [`${path} (not wsbench's) deleted`];
      const now = isLink(path) ? `link:${readlinkSync(path)}` : readFileSync(path, 'utf8');
      return now === before ? [] : [`${path} (not wsbench's) overwritten`];
    };
  };

  /** An input that is not a regular file: a FIFO nobody writes to, or a link to /dev/zero. */
  const special = (dir, kind) => {
    const path = join(dir, kind === 'fifo' ? 'input.json' : 'zero.json');
    if (kind === 'fifo') spawnSync('mkfifo', [path]);
    else symlinkSync('/dev/zero', path);
    return path;
  };

  /**
   * A run of `argv(out, tag)` against a faulty or signalled server: its cells must not read ok
   * (`fault`), or it must be written and marked interrupted with exit `code` (`interrupted`), or,
   * killed, only what it leaves counts (`killed`).
   */
  const faultRun = (name, argv, { inject, wanted = 'fault', code = 130 } = {}) =>
    hostile(name, async ({ dir }) => {
      const out = join(dir, 'r.json');
      const tag = tagged();
      const ran = await runBin(argv(out, tag), {
        cwd: dir,
        tag,
        inject: inject && ((child, stderr) => inject(child, stderr, out)),
      });
      if (ran.hung)
        return {
          code: ran.code,
          hung: true,
          left: ran.left,
          lost: existsSync(out) ? null : 'hung, and no result written',
        };
      if (wanted === 'killed') return { code: ran.code, left: ran.left };
      if (wanted === 'fault')
        return { code: ran.code, left: ran.left, ...faultShown(readResultFile, out, ran.code, 'fault') };
      let result;
      try {
        result = readResultFile(out);
      } catch (error) {
        return {
          code: ran.code,
          left: ran.left,
          lost: `no valid result file (exit ${ran.code}): ${error.message.split('\n')[0]}`,
        };
      }
      const measured = result.cells[0]?.measurements !== undefined;
      return {
        code: ran.code,
        left: ran.left,
        lost: measured ? null : 'the cut cell lost its numbers',
        readAsOk:
          ran.code === code && result.interrupted
            ? null
            : `not marked interrupted with exit ${code} (exit ${ran.code})`,
      };
    });

  const front = (options, tag) => `front=${node} ${FRONT} --port {port} --tag ${tag} ${options}`;

  return [
    // ---------------------------------------------------------------- files it writes (issue 29, item 1)
    hostile('journal symlinked to a file elsewhere', async ({ dir }) => {
      mkdirSync(join(dir, 'out'));
      const journal = join(dir, 'out', 'o.json.journal');
      const intact = notOurs(journal, () => symlinkSync('../../elsewhere/victim.txt', journal));
      const ran = await runBin(quickRun(join(dir, 'out', 'o.json')), { cwd: dir });
      return { code: ran.code, hung: ran.hung, left: ran.left, outside: intact() };
    }),
    hostile('a file at <out>.journal that is no journal', async ({ dir }) => {
      const journal = join(dir, 'o.json.journal');
      const intact = notOurs(journal, () => writeFileSync(journal, 'my notes, not a journal\n'));
      const ran = await runBin(quickRun(join(dir, 'o.json')), { cwd: dir });
      return { code: ran.code, hung: ran.hung, left: ran.left, outside: intact() };
    }),

    // ---------------------------------------------------------------- files it reads (item 2)
    ...['fifo', 'zero'].flatMap((kind) => [
      refused(`report of a ${kind === 'fifo' ? 'FIFO' : 'link to /dev/zero'}`, ({ dir }) => ({
        argv: ['report', special(dir, kind)],
      })),
      refused(`compare against a ${kind === 'fifo' ? 'FIFO' : 'link to /dev/zero'}`, ({ dir }) => {
        copyFileSync(PREVIOUS, join(dir, 'base.json'));
        return { argv: ['compare', join(dir, 'base.json'), special(dir, kind)] };
      }),
      refused(`recover of a ${kind === 'fifo' ? 'FIFO' : 'link to /dev/zero'}`, ({ dir }) => ({
        argv: ['recover', special(dir, kind)],
      })),
      refused(`--ca a ${kind === 'fifo' ? 'FIFO' : 'link to /dev/zero'}`, ({ dir }) => ({
        argv: ['run', 'echo', '--target', 'wss://127.0.0.1:9/', '--ca', special(dir, kind), '--clients', 'ws'],
      })),
    ]),

    // ---------------------------------------------------------------- live surfaces (items 3, 4, 5)
    hostile('Host: evil.example to the dashboard and /metrics', async ({ dir }) => {
      const out = join(dir, 'r.json');
      const answers = [];
      const ran = await runBin(
        [
          'run',
          'echo',
          '--servers',
          'ws',
          '--clients',
          'ws',
          '--duration',
          '30s',
          '--dashboard',
          '127.0.0.1:0',
          '--metrics-listen',
          '127.0.0.1:0',
          '--metrics-linger',
          '0s',
          '--out',
          out,
        ],
        {
          cwd: dir,
          inject: async (child, stderr) => {
            await until(stderr, /: started/);
            const dashboard = /dashboard: (http:\S+)/.exec(stderr())?.[1];
            const metrics = /metrics: (http:\S+)/.exec(stderr())?.[1];
            for (const url of [dashboard && new URL('events', dashboard).href, metrics].filter(Boolean))
              answers.push({ path: url, ...(await getWithHost(url, 'evil.example')) });
            killQuietly(child.pid, 'SIGINT');
          },
        },
      );
      // Refused is 421 (or 403) with nothing of the run: no cell, no scenario, no metric family.
      const served = answers.filter(
        (a) => (a.status !== 421 && a.status !== 403) || /echo|"cells"|wsbench_/.test(a.body),
      );
      const shown = faultShown(readResultFile, out, ran.code, 'interrupted');
      return {
        code: ran.code,
        hung: ran.hung,
        left: ran.left,
        lost: shown.lost,
        readAsOk:
          answers.length < 2
            ? `the live views did not start: ${ran.stderr.trim().split('\n').at(-1)}`
            : served.length
              ? `answered Host evil.example: ${served.map((a) => `${a.path} ${a.status}`).join(', ')}`
              : null,
      };
    }),
    hostile('--dashboard evil.example:80 is not looked up', async ({ dir }) => {
      if (process.getuid?.() !== 0 || spawnSync('unshare', ['--help']).status !== 0)
        return { skipped: 'needs root and unshare (a network namespace of its own)' };
      const queries = join(dir, 'dns-queries.txt');
      const resolv = join(dir, 'resolv.conf');
      writeFileSync(resolv, 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n');
      writeFileSync(queries, '');
      // In a namespace of its own, no packet leaves the machine; a DNS server on its loopback counts what reaches it.
      const listener = join(dir, 'dns-listener.cjs');
      writeFileSync(
        listener,
        `const fs = require('fs');\nrequire('dgram').createSocket('udp4').on('message', () => fs.appendFileSync(${JSON.stringify(queries)}, 'query\\n')).bind(53, '127.0.0.1');\n`,
      );
      const script = `mount --bind ${resolv} /etc/resolv.conf && ip link set lo up && { ${node} ${listener} & sleep 1; ${node} ${bin} run echo --servers ws --clients ws --duration 1s --dashboard evil.example:80 --out ${join(dir, 'r.json')}; echo "exit $?" >&2; kill $!; }`;
      const ran = spawnSync('unshare', ['-m', '-n', 'sh', '-c', script], { encoding: 'utf8', timeout: 60_000 });
      const lines = ran.stderr
        .trim()
        .split('\n')
        .filter((l) => !/^exit \d+$/.test(l));
      const code = Number(/exit (\d+)/.exec(ran.stderr)?.[1] ?? NaN);
      const asked = readFileSync(queries, 'utf8').split('\n').filter(Boolean).length;
      const wrong =
        asked > 0
          ? `looked evil.example up: ${asked} DNS quer${asked === 1 ? 'y' : 'ies'}`
          : code !== 2 || lines.length !== 1
            ? `exit ${code}, ${lines.length} lines: ${lines.at(-1) ?? ''}`
            : null;
      return { code, hung: ran.error?.code === 'ETIMEDOUT', readAsOk: wrong };
    }),
    hostile('a backslash-quote in a metric header (Vega)', async ({ dir }) => {
      const file = join(dir, 'r.json');
      const made = await runBin(quickRun(join(dir, 'made.json')), { cwd: dir });
      if (made.code !== 0)
        return { code: made.code, lost: `the run to report failed: ${made.stderr.trim().split('\n').at(-1)}` };
      const data = JSON.parse(readFileSync(join(dir, 'made.json'), 'utf8'));
      for (const metric of Object.values(data.scenarios[0].metrics))
        metric.header = `${metric.header} \\" '); alert(1); ('`;
      writeFileSync(file, JSON.stringify(data));
      const ran = await runBin(['report', file], { cwd: dir });
      const broken =
        ran.code !== 0 || /internal error/.test(ran.stderr)
          ? `report exit ${ran.code}: ${ran.stderr.trim().split('\n')[0]}`
          : null;
      return {
        code: ran.code,
        hung: ran.hung,
        left: ran.left,
        lost: broken ?? (existsSync(join(dir, 'r.report', 'report.html')) ? null : 'no report.html'),
      };
    }),
    hostile('backticks and <img> in a path (compare Markdown)', async ({ dir }) => {
      const base = join(dir, 'base.json');
      const hostileName = join(dir, 'n`<img src=x>`.json');
      copyFileSync(PREVIOUS, base);
      copyFileSync(PREVIOUS, hostileName);
      const ran = await runBin(['compare', base, hostileName, '--format', 'markdown'], { cwd: dir });
      const raw = ran.stdout.split('\n').filter((line) => rawHtmlOutsideCode(line, '<img src=x>'));
      return {
        code: ran.code,
        hung: ran.hung,
        left: ran.left,
        readAsOk: raw.length ? `raw HTML in the Markdown: ${raw[0].slice(0, 120)}` : null,
      };
    }),
    hostile('secrets in --target', async ({ dir }) => {
      const target = await startTarget(ECHO, `${tagged()}-target`);
      if (!target) return { lost: 'the target fixture did not start' };
      const out = join(dir, 'r.json');
      const ran = await runBin(
        [
          'run',
          'echo',
          '--target',
          `ws://admin:s3cretPW@127.0.0.1:${target.port}/?token=TOPSECRET`,
          '--clients',
          'ws',
          '--duration',
          '1s',
          '--keep-journal',
          '--out',
          out,
        ],
        { cwd: dir },
      );
      target.child.kill('SIGKILL');
      const leaks = [
        ['stdout', ran.stdout],
        ['stderr', ran.stderr],
        ...filesUnder(dir).map((f) => [f, readFileSync(f, 'latin1')]),
      ]
        .filter(([, text]) => /s3cretPW|TOPSECRET/.test(text))
        .map(([where]) => where);
      return {
        code: ran.code,
        hung: ran.hung,
        left: ran.left,
        readAsOk: leaks.length ? `the secret is in ${leaks.join(', ')}` : null,
        lost: existsSync(out) ? null : `no result (exit ${ran.code})`,
      };
    }),

    // ---------------------------------------------------------------- faults never ok (item 6)
    faultRun('churn: a server that drops every second handshake', (out, tag) => [
      'run',
      'churn',
      '--server-cmd',
      front('--drop-every 2', tag),
      '--clients',
      'ws',
      '--rate',
      '20',
      '--duration',
      '2s',
      '--out',
      out,
    ]),
    faultRun('churn: a server that answers 429 past 5 a second', (out, tag) => [
      'run',
      'churn',
      '--server-cmd',
      front('--limit 5 --window-ms 1000', tag),
      '--clients',
      'ws',
      '--rate',
      '30',
      '--duration',
      '2s',
      '--out',
      out,
    ]),
    faultRun('reconnect-storm: a server that drops every second', (out, tag) => [
      'run',
      'reconnect-storm',
      '--server-cmd',
      front('--drop-every 2', tag),
      '--clients',
      'ws',
      '--connections',
      '20',
      '--restart-at',
      '300ms',
      '--downtime',
      '200ms',
      '--duration',
      '6s',
      '--out',
      out,
    ]),

    // ---------------------------------------------------------------- every way out cleans up (item 7)
    faultRun(
      'kill -9 wsbench: its server cgroup goes',
      (out, tag) => [
        'run',
        'echo',
        '--server-cmd',
        `srv=${node} ${ECHO} --port {port} --mode setsid --tag ${tag}`,
        '--clients',
        'ws',
        '--duration',
        '30s',
        '--out',
        out,
      ],
      {
        wanted: 'killed',
        inject: async (child, stderr) => {
          await until(stderr, /: started/);
          await sleep(1500);
          killQuietly(child.pid, 'SIGKILL');
        },
      },
    ),
    faultRun(
      'SIGHUP to the group of a --server-cmd run',
      (out, tag) => [
        'run',
        'echo',
        '--server-cmd',
        `srv=${node} ${ECHO} --port {port} --mode echo --tag ${tag}`,
        '--clients',
        'ws',
        '--duration',
        '30s',
        '--out',
        out,
      ],
      {
        wanted: 'interrupted',
        code: 129,
        inject: async (child, stderr, out) => {
          await until(stderr, /: started/);
          await untilWindowOpen(out);
          await sleep(1000);
          killQuietly(-child.pid, 'SIGHUP');
        },
      },
    ),
    hostile('recover interrupted (SIGINT) while it holds the lock', async ({ dir }) => {
      const out = join(dir, 'r.json');
      const made = await runBin(
        [
          'run',
          fixture('slow-import-scenario'),
          '--servers',
          'ws',
          '--clients',
          'ws',
          '--duration',
          '300ms',
          '--keep-journal',
          '--out',
          out,
        ],
        { cwd: dir },
      );
      if (made.code !== 0)
        return {
          code: made.code,
          lost: `the run that makes the journal failed: ${made.stderr.trim().split('\n').at(-1)}`,
        };
      const journal = `${out}.journal`;
      // Cut the record that says the result was written, as a crash would.
      const lines = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
      writeFileSync(journal, `${lines.slice(0, -1).join('\n')}\n`);
      const ran = await runBin(['recover', journal], {
        cwd: dir,
        env: { WSBENCH_TEST_IMPORT_DELAY_MS: '30000' },
        inject: async (child) => {
          for (let waited = 0; waited < 30_000 && !existsSync(`${out}.lock`); waited += 50) await sleep(50);
          killQuietly(child.pid, 'SIGINT');
        },
      });
      const left = [...ran.left, ...(existsSync(`${out}.lock`) ? [`lock ${out}.lock`] : [])];
      return { code: ran.code, hung: ran.hung, left, readAsOk: ran.code === 130 ? null : `exit ${ran.code}, not 130` };
    }),

    // ---------------------------------------------------------------- one measurement, one method (item 8)
    hostile("srv back: the first answered handshake, not the probe's hold", async ({ dir }) => {
      const out = join(dir, 'r.json');
      const events = join(dir, 'events.txt');
      const tag = tagged();
      const ran = await runBin(
        [
          'run',
          fixture('restart-times-scenario'),
          '--server-cmd',
          `cmd=${node} ${ECHO} --port {port} --mode echo --tag ${tag} --events ${events}`,
          '--clients',
          'ws',
          '--connections',
          '2',
          '--restart-at',
          '300ms',
          '--downtime',
          '200ms',
          '--duration',
          '5s',
          '--out',
          out,
        ],
        { cwd: dir, tag },
      );
      let cell;
      try {
        cell = readResultFile(out).cells[0];
      } catch (error) {
        return { code: ran.code, hung: ran.hung, left: ran.left, lost: `no result: ${error.message.split('\n')[0]}` };
      }
      const { stoppedAtUs, servingAtUs } = cell.measurements?.counters ?? {};
      const logged = existsSync(events)
        ? readFileSync(events, 'utf8')
            .trim()
            .split('\n')
            .map((l) => l.split(' '))
        : [];
      const restarted = logged.find(([, , at]) => Number(at) > stoppedAtUs)?.[0];
      const firstClose = Math.min(
        ...logged.filter(([pid, what]) => pid === restarted && what === 'close').map(([, , at]) => Number(at)),
      );
      const wrong = !(servingAtUs < firstClose)
        ? `srv back read ${((servingAtUs - firstClose) / 1000).toFixed(1)} ms after the probe's connection closed: its hold counted`
        : null;
      return { code: ran.code, hung: ran.hung, left: ran.left, readAsOk: wrong };
    }),

    // ---------------------------------------------------------------- no impossible number (item 9)
    refused(
      'a shard that would get no connection',
      () => ({
        argv: [
          'run',
          'echo',
          '--target',
          'ws://127.0.0.1:9/',
          '--clients',
          'ws',
          '--connections',
          '1',
          '--shard',
          '1/2',
          '--run-id',
          'r1',
          '--barrier',
          'http://127.0.0.1:9/',
        ],
      }),
      /^wsbench: --connections: .*shard 1 with none/,
    ),
    hostile('merge of a shard whose window closed at once', async ({ dir }) => {
      const made = await runBin(quickRun(join(dir, 'one.json')), { cwd: dir });
      if (made.code !== 0) return { code: made.code, lost: 'the run to shard failed' };
      const [s0, s1] = [0, 1].map((index) => {
        const data = JSON.parse(readFileSync(join(dir, 'one.json'), 'utf8'));
        data.shard = shardInfo(index);
        const m = data.cells[0].measurements;
        m.windowOpenedAtEpochMs ??= Date.now();
        if (index === 1) {
          // A shard with nothing to do: no traffic, a window of 0.42 ms.
          for (const key of Object.keys(m.counters)) m.counters[key] = 0;
          m.histograms = {};
          m.windowMs = 0.42;
        }
        const file = join(dir, `s${index}.json`);
        writeFileSync(file, JSON.stringify(data));
        return { file, received: m.counters.received ?? 0, windowMs: m.windowMs };
      });
      const ran = await runBin(['merge', s0.file, s1.file, '--out', join(dir, 'merged.json')], { cwd: dir });
      if (ran.code === 2) return { code: ran.code }; // refused, with its reason: no impossible number either
      let merged;
      try {
        merged = readResultFile(join(dir, 'merged.json')).cells[0];
      } catch (error) {
        return { code: ran.code, lost: `no merged result (exit ${ran.code}): ${error.message.split('\n')[0]}` };
      }
      const most = (s0.received / s0.windowMs) * 1000 * 1.001;
      const rate = merged.metrics?.messagesPerSec;
      return {
        code: ran.code,
        hung: ran.hung,
        readAsOk:
          typeof rate === 'number' && rate > most
            ? `merged ${Math.round(rate)} msg/s, more than the ${Math.round(most)} its shard served`
            : null,
      };
    }),

    // ---------------------------------------------------------------- round 4 (issue 42, D1-D7)
    hostile('merge of a shard with errors exits 1 (issue 42, D1)', async ({ dir }) => {
      const made = await runBin(quickRun(join(dir, 'one.json')), { cwd: dir });
      if (made.code !== 0) return { code: made.code, lost: 'the run to shard failed' };
      const files = [0, 1].map((index) => {
        const data = JSON.parse(readFileSync(join(dir, 'one.json'), 'utf8'));
        data.shard = shardInfo(index);
        const cell = data.cells[0];
        if (index === 1) {
          cell.status = 'errors';
          cell.reason = '1 of 1 connections could not open';
          cell.fault = { atMs: null, connections: { opened: 0, failed: 1, lost: 0 } };
        }
        const file = join(dir, `s${index}.json`);
        writeFileSync(file, JSON.stringify(data));
        return file;
      });
      const ran = await runBin(['merge', ...files, '--out', join(dir, 'merged.json')], { cwd: dir });
      const said = ran.stderr.trim().split('\n').at(-1) ?? '';
      return {
        code: ran.code,
        hung: ran.hung,
        readAsOk: ran.code === 1 && /^exit 1: .*--max-errors 0$/.test(said) ? null : `exit ${ran.code}: ${said}`,
      };
    }),

    refused(
      'a plan that is a link to a password file shows none of it (issue 42, D2)',
      ({ dir }) => {
        mkdirSync(join(dir, 'etc'));
        writeFileSync(join(dir, 'etc', 'shadow'), 'root:$6$salt$S3cr3tHash:19000:0:99999:7:::\n');
        symlinkSync(join(dir, 'etc', 'shadow'), join(dir, 'p.yaml'));
        return { argv: ['run', 'echo', '--config', 'p.yaml'] };
      },
      /^wsbench: p\.yaml: line 1, column 1: a key that is no flag's name \(.*\): is it a plan\?$/,
    ),

    refused(
      '--format csv=/proc/x is refused before the run (issue 42, D3)',
      ({ dir }) => ({ argv: quickRun(join(dir, 'o.json'), ['--format', 'csv=/proc/x']) }),
      /^wsbench: --format csv=\/proc\/x: (cannot write in the folder of \/proc\/x \(its folder takes no new files\)|\/proc\/x is not writable)$/,
    ),

    ...['o.json.lock', 'o.json.journal', 'o.report/report.html'].map((file) =>
      refused(
        `--format csv=${file} is refused: the run's own file (issue 42, D4)`,
        ({ dir }) => ({ argv: quickRun(join(dir, 'o.json'), ['--format', `csv=${join(dir, file)}`]) }),
        /^wsbench: --format csv=\S+: \S+ is (the lock|the journal|in the report folder) of the --out file.*; give each output its own file$/,
      ),
    ),

    ...['errors=-1', 'errors<0', 'mean<0ms'].map((clause) =>
      refused(
        `--slo ${clause} that no cell can keep is refused (issue 42, D5)`,
        ({ dir }) => ({ argv: quickRun(join(dir, 'o.json'), ['--slo', clause]) }),
        /^wsbench: --slo: ".*": no cell can keep it \(\w+ is never below 0\), so every cell would fail$/,
      ),
    ),

    refused(
      'compare of a result with errors below 0 (issue 42, D6)',
      ({ dir }) => {
        const data = JSON.parse(readFileSync(PREVIOUS, 'utf8'));
        data.cells[0].metrics.errors = -5;
        writeFileSync(join(dir, 'negative.json'), JSON.stringify(data));
        copyFileSync(PREVIOUS, join(dir, 'base.json'));
        return { argv: ['compare', 'base.json', 'negative.json'] };
      },
      /^wsbench: negative\.json is not a valid wsbench result: cells\[0\]\.metrics\.errors is -5, and a count is never below 0$/,
    ),

    hostile('a WSBENCH_CHROMIUM that hangs on --version leaves no process (issue 42, D7)', async ({ dir }) => {
      const fake = join(dir, 'chromium');
      const pids = join(dir, 'pids');
      writeFileSync(
        fake,
        `#!/bin/sh\nif [ "$1" = --version ]; then sleep 30 & echo "$$ $!" > ${pids}; wait; echo "Chromium 1.2.3.4"; fi\n`,
      );
      chmodSync(fake, 0o755);
      const argv = ['run', 'echo', '--servers', 'ws', '--clients', 'browser', '--duration', '300ms'];
      const ran = await runBin([...argv, '--out', join(dir, 'r.json')], { cwd: dir, env: { WSBENCH_CHROMIUM: fake } });
      const started = existsSync(pids) ? readFileSync(pids, 'utf8').trim().split(' ').map(Number) : [];
      for (let waited = 0; waited < 5000 && started.some(isAlive); waited += 100) await sleep(100);
      const left = started.filter(isAlive).map((pid) => `${pid} (started by the fake chromium's --version)`);
      for (const pid of left) killQuietly(Number(pid.split(' ')[0]), 'SIGKILL');
      return {
        code: ran.code,
        hung: ran.hung,
        left: [...ran.left, ...left],
        lost: started.length === 2 ? null : 'the fake chromium was never asked its version',
      };
    }),

    // ---------------------------------------------------------------- messages (item 10)
    refused(
      'recover of a file that does not exist',
      ({ dir }) => ({ argv: ['recover', join(dir, 'gone.json.journal')] }),
      /does not exist/,
    ),
    refused(
      'a --target name that is not a name',
      () => ({ argv: ['run', 'echo', '--target', '<b>x=y</b>=ws://127.0.0.1:9/', '--clients', 'ws'] }),
      /^wsbench: --target: .*name/,
    ),
    refused(
      'capacity --max below the default --start',
      () => ({ argv: ['capacity', 'fanout', '--target', 'ws://127.0.0.1:9/', '--slo', 'p99<500ms', '--max', '40'] }),
      /--start/,
    ),
    refused(
      '--target-pid of a pgrep that found nothing',
      () => ({ argv: ['run', 'echo', '--target', 'ws://127.0.0.1:9/', '--target-pid', '', '--clients', 'ws'] }),
      /^wsbench: --target-pid: (?!"" is not a process id$)/,
    ),

    // ---------------------------------------------------------------- issue 42, round 4 (D8-D14)
    hostile('D8: a --server-cmd that dies 1 s into --duration 30s ends its cell then, not ok', async ({ dir }) => {
      const out = join(dir, 'r.json');
      const tag = tagged();
      const started = Date.now();
      const ran = await runBin(
        [
          'run',
          'echo',
          '--server-cmd',
          `dies=${node} ${ECHO} --port {port} --mode exit-after --after-ms 1000 --tag ${tag}`,
          '--clients',
          'ws',
          '--duration',
          '30s',
          '--out',
          out,
        ],
        { cwd: dir, tag },
      );
      const tookMs = Date.now() - started;
      const shown = faultShown(readResultFile, out, ran.code, 'fault');
      return {
        code: ran.code,
        hung: ran.hung,
        left: ran.left,
        lost: shown.lost,
        readAsOk:
          shown.readAsOk ??
          (tookMs >= DEAD_SERVER_END_MS
            ? `took ${(tookMs / 1000).toFixed(1)} s of a 30 s window: the dead server's cell ran on`
            : null),
      };
    }),
    refused(
      'D9: init in /proc/newdir (mkdir answers ENOENT)',
      () => ({ argv: ['init', '/proc/wsbench-newdir'] }),
      /^wsbench: cannot create the folder \/proc\/wsbench-newdir: \/proc takes no new folder \(ENOENT\)$/,
    ),
    refused(
      'D9: report --out /proc/newdir',
      ({ dir }) => {
        copyFileSync(PREVIOUS, join(dir, 'r.json'));
        return { argv: ['report', join(dir, 'r.json'), '--out', '/proc/wsbench-newdir'] };
      },
      /^wsbench: cannot create the folder \/proc\/wsbench-newdir: /,
    ),
    refused(
      'D10: init in /sys/newdir (EPERM)',
      () => ({ argv: ['init', '/sys/wsbench-newdir'] }),
      /^wsbench: cannot create the folder \/sys\/wsbench-newdir: not permitted in \/sys \(EPERM\)$/,
    ),
    hostile('D10: init in a folder whose parent is immutable', async ({ dir }) => {
      if (process.getuid?.() !== 0) return { skipped: 'chattr +i needs root' };
      const parent = join(dir, 'immutable');
      mkdirSync(parent);
      if (spawnSync('chattr', ['+i', parent]).status !== 0)
        return { skipped: 'chattr +i is not available here (no chattr, or a file system without the flag)' };
      try {
        const ran = await runBin(['init', join(parent, 'project')], { cwd: dir, hangMs: SPECIAL_FILE_HANG_MS });
        const lines = ran.stderr.trim().split('\n').filter(Boolean);
        const wrong =
          ran.code !== 2 || lines.length !== 1 || !/^wsbench: cannot create the folder .*\(EPERM\)$/.test(lines[0])
            ? `exit ${ran.code}, ${lines.length} lines: ${lines[0] ?? ''}`
            : null;
        return { code: ran.code, hung: ran.hung, left: ran.left, readAsOk: wrong };
      } finally {
        spawnSync('chattr', ['-i', parent]);
      }
    }),
    refused(
      'D11: a scenario whose top-level await never settles',
      () => ({ argv: ['run', fixture('never-loads-scenario'), '--servers', 'ws', '--clients', 'ws'] }),
      /^wsbench: scenario .*never-loads-scenario\.js never finished loading: /,
    ),
    hostile('D12: --host ::1, an echo run on IPv6 loopback (ws x ws)', async ({ dir }) => {
      const v6 = await new Promise((resolve) => {
        const probe = createServer().once('error', () => resolve(false));
        probe.listen(0, '::1', () => probe.close(() => resolve(true)));
      });
      if (!v6) return { skipped: 'no IPv6 loopback here' };
      const out = join(dir, 'r.json');
      const ran = await runBin(
        ['run', 'echo', '--host', '::1', '--servers', 'ws', '--clients', 'ws', '--duration', '1s', '--out', out],
        { cwd: dir },
      );
      let cell;
      try {
        cell = readResultFile(out).cells[0];
      } catch (error) {
        return { code: ran.code, hung: ran.hung, left: ran.left, lost: `no result: ${error.message.split('\n')[0]}` };
      }
      return {
        code: ran.code,
        hung: ran.hung,
        left: ran.left,
        lost:
          ran.code === 0 && cell?.status === 'ok'
            ? null
            : `the run on ::1 did not measure (exit ${ran.code}, ${cell?.status}: ${cell?.reason ?? ran.stderr.trim().split('\n').at(-1)})`,
      };
    }),
    refused(
      'D13: a --target URL with a #fragment',
      () => ({ argv: ['run', 'echo', '--target', 'ws://127.0.0.1:1/#frag=SECRET', '--clients', 'ws'] }),
      /^(?!.*SECRET)wsbench: --target: "ws:\/\/127\.0\.0\.1:1\/#\.\.\." has a #fragment/,
    ),
    faultRun(
      'D14: reconnect-storm: a server that cuts every second connection 0.3-0.8 s after it opens',
      (out, tag) => [
        'run',
        'reconnect-storm',
        '--server-cmd',
        front('--close-every 2', tag),
        '--clients',
        'ws',
        '--connections',
        '20',
        '--restart-at',
        '1500ms',
        '--downtime',
        '200ms',
        '--duration',
        '6s',
        '--out',
        out,
      ],
    ),
  ];
}

/** The shard block of shard `index` of 2 of one run, for result files made into shards. */
function shardInfo(index) {
  return {
    runId: 'r1',
    index,
    count: 2,
    configHash: 'same',
    histogram: { lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, significantDigits: 3 },
    start: { mode: 'barrier', atEpochMs: 0 },
    clockOffsetMs: 0,
    clockRttMs: 0.1,
  };
}

/** GET `url` with the Host header `host`; the status and the first 4 KB of the body (at most 3 s). */
function getWithHost(url, host) {
  return new Promise((resolve) => {
    const req = request(url, { headers: { Host: host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
        if (body.length > 4096) req.destroy();
      });
      const done = () => resolve({ status: response.statusCode, body });
      response.on('end', done);
      response.on('close', done);
      setTimeout(() => req.destroy(), 3000).unref();
    });
    req.on('error', (error) => resolve({ status: null, body: error.message }));
    req.end();
  });
}

/** Whether `needle` stands in `line` outside every Markdown code span (CommonMark: a run of n backticks closes at the next run of exactly n). */
function rawHtmlOutsideCode(line, needle) {
  const spans = [];
  for (let i = 0; i < line.length; ) {
    if (line[i] !== '`') {
      i += 1;
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n += 1;
    const close = findRun(line, i + n, n);
    if (close < 0) {
      i += n;
      continue;
    }
    spans.push([i, close + n]);
    i = close + n;
  }
  for (let at = line.indexOf(needle); at >= 0; at = line.indexOf(needle, at + 1)) {
    if (!spans.some(([start, end]) => at > start && at < end)) return true;
  }
  return false;
}

function findRun(line, from, n) {
  for (let i = from; i < line.length; ) {
    if (line[i] !== '`') {
      i += 1;
      continue;
    }
    let m = 0;
    while (line[i + m] === '`') m += 1;
    if (m === n) return i;
    i += m;
  }
  return -1;
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

/** Whether `pid` is a live process (a zombie awaiting its reaper counts as gone). */
function isAlive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
