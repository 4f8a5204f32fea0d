/**
 * A scenario written in JavaScript has no compiler to catch a misspelt name:
 * defineScenario does, when the file loads, in one line naming the key path
 * (a table key no recorder derives, a statistic that does not exist), and the
 * CLI refuses it with that line and exit 2. A recorder name the code misspells
 * at run time fails the cell with one line naming it and the declared ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResultFile } from '../src/parent/results/result-file.js';
import { REPO_ROOT, runCli, tempDir } from './support.js';

const scenario = ({
  stats = "'p50', 'p99'",
  table = "'rttP50Ms', 'rttP99Ms', 'wrong'",
  recorder = 'rtt',
} = {}): string => `
import { counter, defineScenario, histogram } from 'wsbench/scenario';
export default defineScenario({
  name: 'rpc',
  description: 'an echo per connection',
  parameters: { connections: { kind: 'integer', description: 'connections', default: 1, min: 1 } },
  server: () => ({ onMessage: (connection, data) => connection.send(data) }),
  recorders: { rtt: histogram({ stats: [${stats}] }), wrong: counter() },
  async connection(conn, ctx) {
    const requests = conn.requests({ parse: (data) => data, time: ctx.recorders.${recorder} });
    for (;;) await requests.send('ping');
  },
  table: [${table}],
});
`;

/** A project folder that finds this wsbench, with the given files. */
function project(files: Record<string, string>): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'wsbench'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('a misspelt table key or statistic: one line naming the key path, exit 2', { timeout: 60_000 }, async () => {
  const dir = project({
    'table.js': scenario({ table: "'rttP50Ms', 'rttP99MS'" }),
    'stats.js': scenario({ stats: "'p50', 'p95'", table: "'rttP50Ms'" }),
  });
  const table = await runCli(['run', './table.js', '--servers', 'ws', '--clients', 'ws'], { cwd: dir });
  assert.equal(table.code, 2);
  assert.equal(
    table.stderr,
    `wsbench: cannot load scenario ${join(dir, 'table.js')}: scenario rpc: table[1] names "rttP99MS", which is not a declared metric: did you mean "rttP99Ms"?\n`,
  );
  const stats = await runCli(['run', './stats.js', '--servers', 'ws', '--clients', 'ws'], { cwd: dir });
  assert.equal(stats.code, 2);
  assert.equal(
    stats.stderr,
    `wsbench: cannot load scenario ${join(dir, 'stats.js')}: scenario rpc: recorders.rtt.stats[1] "p95" is not a statistic (count, min, mean, stdev, p50, p90, p99, p999, max)\n`,
  );
});

test('a recorder the code misspells fails the cell, naming it and the declared ones', { timeout: 60_000 }, async () => {
  const dir = project({ 'typo.js': scenario({ recorder: 'rtx' }) });
  const outcome = await runCli(
    ['run', './typo.js', '--servers', 'ws', '--clients', 'ws', '--duration', '300ms', '--out', 'r.json'],
    { cwd: dir },
  );
  const [cell] = readResultFile(join(dir, 'r.json')).cells;
  assert.equal(cell?.status, 'failed', outcome.stderr);
  assert.match(
    cell && 'reason' in cell ? cell.reason : '',
    /^client: ctx\.recorders\.rtx is not a declared client recorder; declared: rtt, wrong \(/,
  );
});
