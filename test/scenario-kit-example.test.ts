/**
 * docs/scenario-kit.md's whole scenario (many connections at a paced rate,
 * their failures by reason, the server's memory per connection, the end of a
 * stream, seeded data) compiles in a user's project (nodenext, strict) and
 * runs by path: the kit's building blocks work as the page shows them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult } from '../src/shared/types/result-types.js';
import { REPO_ROOT, runCli } from './support.js';
import { compileInUserProject } from './user-project.js';

const PAGE = 'docs/scenario-kit.md';

function pageScenario(): string {
  const block = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(REPO_ROOT, PAGE), 'utf8'));
  assert.ok(block, `${PAGE} has a \`\`\`ts block`);
  return block[1]!;
}

test(`the scenario of ${PAGE} compiles in a user's project and runs: every message of every connection counted`, {
  timeout: 120_000,
}, async () => {
  const { dir, errors } = compileInUserProject('pings.ts', pageScenario());
  assert.equal(errors, '', 'tsc found errors');
  const out = join(dir, 'result.json');
  const outcome = await runCli(
    ['run', './pings.js', '--servers', 'ws', '--clients', 'ws', '--connections', '20', '--out', out, '--json'],
    { cwd: dir },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.equal(cell?.status, 'ok', cell && 'reason' in cell ? cell.reason : 'no cell');
  assert.equal(cell.metrics.connected, 20);
  assert.equal(cell.metrics.connectFailed, 0);
  assert.equal(cell.metrics.received, 200);
  assert.equal(cell.metrics.missing, 0);
});
