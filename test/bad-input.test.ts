/**
 * Bad input, one line and exit 2, nothing started: flags, parameters, files, hosts and URLs, each refused as
 * the user typed it.
 *
 * Slow (about 40 s): each case is a real wsbench start (a fresh process reads its flags).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, tempDir, usageErrorLine } from './support.js';

const NOT_A_SCENARIO = fileURLToPath(new URL('./fixtures/not-a-scenario.js', import.meta.url));
const EXPORTS_NONE = fileURLToPath(new URL('./fixtures/exports-no-scenario.js', import.meta.url));
const WITHOUT_TABLE = fileURLToPath(new URL('./fixtures/scenario-without-table.js', import.meta.url));

/** Each bad input: the exact one line on stderr, exit 2, nothing on stdout. */
const cases: Array<[string, string[], string]> = [
  [
    'unknown server stack',
    ['run', 'echo', '--servers', 'ws,nginx'],
    'wsbench: --servers: unknown server stack "nginx" (known: ws, uws, socketio, bun, deno)',
  ],
  [
    'unknown client stack',
    ['run', 'echo', '--clients', 'curl'],
    'wsbench: --clients: unknown client stack "curl" (known: ws, undici, socketio, bun, deno, browser, browser-socketio)',
  ],
  [
    'unknown scenario',
    ['run', 'nope'],
    /* known list grows as scenarios land */ 'wsbench: unknown scenario "nope" (known: ',
  ],
  ['unknown option', ['run', 'echo', '--bogus', '1'], "wsbench: unknown option '--bogus'"],
  ['unknown command', ['frobnicate'], 'wsbench: unknown command "frobnicate" (commands: '],
  [
    'a mistyped flag',
    ['run', 'echo', '--servres', 'ws'],
    "wsbench: unknown option '--servres': did you mean --servers?",
  ],
  [
    "a mistyped scenario parameter's flag",
    ['run', 'echo', '--conections', '3'],
    "wsbench: unknown option '--conections': did you mean --connections?",
  ],
  ['a mistyped scenario', ['run', 'ehco'], 'wsbench: unknown scenario "ehco": did you mean "echo"? (known: '],
  ['a mistyped command', ['rnu', 'echo'], 'wsbench: unknown command "rnu": did you mean "run"? (commands: '],
  [
    'a mistyped stack',
    ['run', 'echo', '--servers', 'wss'],
    'wsbench: --servers: unknown server stack "wss": did you mean "ws"? (known: ws, uws, socketio, bun, deno)',
  ],
  [
    'malformed duration',
    ['run', 'echo', '--duration', '5 parsecs'],
    'wsbench: --duration: "5 parsecs" is not a duration such as 500ms, 5s, 1m',
  ],
  [
    'duration without a unit',
    ['run', 'echo', '--duration', '5'],
    'wsbench: --duration: "5" has no unit: write 5s or 5ms',
  ],
  [
    'malformed size',
    ['run', 'echo', '--payload', 'lots'],
    'wsbench: --payload: "lots" is not a size such as 32, 4kb, 64KiB',
  ],
  [
    'an empty item in a sweep',
    ['run', 'echo', '--payload', '32,,64'],
    'wsbench: --payload: an empty item in the list "32,,64"',
  ],
  [
    'a list on a parameter that does not sweep',
    ['run', 'echo', '--duration', '1s,2s'],
    'wsbench: --duration: takes one value, not a list ("1s", "2s")',
  ],
  [
    'an empty stack name',
    ['run', 'echo', '--servers', 'ws,,uws'],
    'wsbench: --servers: an empty name in the list (known: ws, uws, socketio, bun, deno)',
  ],
  ['zero connections', ['run', 'echo', '--connections', '0'], 'wsbench: --connections: 0 is below the minimum 1'],
  ['negative in flight', ['run', 'echo', '--inflight', '-3'], 'wsbench: --inflight: -3 is below the minimum 1'],
  [
    'duration too short',
    ['run', 'echo', '--duration', '10ms'],
    'wsbench: --duration: "10ms" is below the minimum 100ms',
  ],
  [
    'zero client processes',
    ['run', 'echo', '--client-procs', '0'],
    'wsbench: --client-procs: 0 is not a whole number from 1 to 64',
  ],
  ['zero rounds', ['run', 'echo', '--repeat', '0'], 'wsbench: --repeat: 0 is not a whole number from 1 to 100'],
  [
    'non-loopback host',
    ['run', 'echo', '--host', '10.0.0.1'],
    'wsbench: --host: 10.0.0.1 is not a loopback address (127.x.x.x or ::1)',
  ],
  [
    'unknown preset',
    ['run', 'echo', '--preset', 'huge'],
    'wsbench: --preset: "huge" is not a preset of echo (ci, quick)',
  ],
  [
    'missing --out directory',
    ['run', 'echo', '--out', '/nonexistent/dir/r.json'],
    'wsbench: --out: directory /nonexistent/dir does not exist',
  ],
  [
    'a script that is not a scenario',
    ['run', NOT_A_SCENARIO],
    `wsbench: ${NOT_A_SCENARIO} is not a wsbench scenario: it never calls defineScenario() (not run)`,
  ],
  [
    'a module that exports no scenario',
    ['run', EXPORTS_NONE],
    `wsbench: ${EXPORTS_NONE} does not export a scenario made with defineScenario()`,
  ],
  [
    'a scenario without a table',
    ['run', WITHOUT_TABLE],
    `wsbench: cannot load scenario ${WITHOUT_TABLE}: scenario no-table: table must list the metrics the terminal table shows (an array of metric names)`,
  ],
  [
    'a TypeScript scenario',
    ['run', 'test/fixtures/crashing-server.ts'],
    'wsbench: test/fixtures/crashing-server.ts is TypeScript: compile it to JavaScript first (tsc), then run the .js file (Node 20 cannot run .ts files)',
  ],
  [
    'scenario file that does not exist',
    ['run', './no/such/scenario.js'],
    'wsbench: scenario file not found: ./no/such/scenario.js',
  ],
];

for (const [name, args, expected] of cases) {
  test(`bad input: ${name}`, async () => {
    const outcome = await runCli(args);
    const line = usageErrorLine(outcome);
    if (expected.endsWith('(known: ') || expected.endsWith('(commands: ')) assert.ok(line.startsWith(expected), line);
    else assert.equal(line, expected);
  });
}

test('bad input: an --out file that cannot be written', {
  skip: process.getuid?.() === 0 ? 'root can write anywhere' : false,
}, async () => {
  const dir = join(tempDir(), 'locked');
  mkdirSync(dir);
  chmodSync(dir, 0o500);
  const outcome = await runCli(['run', 'echo', '--out', join(dir, 'r.json')]);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr.trim(), `wsbench: --out: ${join(dir, 'r.json')} is not writable`);
});

test('bad input: an --out path that is a directory', async () => {
  const dir = tempDir();
  const outcome = await runCli(['run', 'echo', '--out', dir]);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr.trim(), `wsbench: --out: ${dir} is a directory`);
});

test('a script that is not a scenario is refused before its top level runs', async () => {
  const marker = join(tempDir(), 'ran');
  const outcome = await runCli(['run', NOT_A_SCENARIO], { env: { WSBENCH_TEST_MARKER: marker } });
  assert.equal(outcome.code, 2);
  assert.equal(existsSync(marker), false, 'the script was not executed');
});
