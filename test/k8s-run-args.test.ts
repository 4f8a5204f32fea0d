/**
 * `wsbench k8s` reads the run arguments with `run`'s own parser, on the
 * arguments every pod gets: a mistake any pod would refuse is one line and
 * exit 2, with no manifest printed. Limits of this machine (open files, local
 * ports) are the pods' to check, so they do not refuse a manifest here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from './support.js';

const K8S = ['k8s', '--shards', '4', '--image', 'registry.example/wsbench:0.1.0', '--'];
const TARGET = ['--target', 'ws://server.bench:8080/'];

const REFUSED: Array<[string, string[], string]> = [
  ['an unknown scenario', ['nosuch', ...TARGET], 'wsbench: unknown scenario "nosuch"'],
  [
    'a count in exponent notation',
    ['fanout', '--connections', '1e9', ...TARGET],
    'wsbench: --connections: "1e9" is not a whole number',
  ],
  [
    "a count above the parameter's maximum",
    ['fanout', '--connections', '1000000', ...TARGET],
    'wsbench: --connections: 1000000 is',
  ],
  [
    'a duration without a unit',
    ['fanout', '--duration', '5000', ...TARGET],
    'wsbench: --duration: "5000" has no unit: write 5000s or 5000ms',
  ],
  ['an unknown flag', ['fanout', '--bogus', '1', ...TARGET], "wsbench: unknown option '--bogus'"],
  [
    'an unknown client stack',
    ['echo', '--clients', 'nope', ...TARGET],
    'wsbench: --clients: unknown client stack "nope"',
  ],
];

for (const [what, runArgs, message] of REFUSED) {
  test(`k8s refuses run arguments with ${what}: one line, exit 2, no manifest`, async () => {
    const out = await runCli([...K8S, ...runArgs], { timeoutMs: 60_000 });
    assert.equal(out.code, 2, out.stderr);
    assert.equal(out.stdout, '', 'no manifest');
    assert.equal(out.stderr.split('\n').filter(Boolean).length, 1, out.stderr);
    assert.ok(out.stderr.startsWith(message), `${out.stderr} should start with ${message}`);
  });
}

test('k8s leaves the open-file limit and the local ports to the pods: 100,000 connections over one source address still make a manifest', async () => {
  const runArgs = [
    'fanout',
    '--connections',
    '100000',
    '--connect-rate',
    '10000',
    '--source-addresses',
    '1',
    ...TARGET,
  ];
  const out = await runCli([...K8S, ...runArgs], { timeoutMs: 60_000 });
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /kind: Job/);
});
