/**
 * A built-in scenario is the template of a user's own: scenarios/echo.ts,
 * copied as it is into a project that has wsbench installed, imports
 * everything it uses from `wsbench/scenario`, compiles (module nodenext,
 * strict) and runs by path, its child processes loading the kit alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult } from '../src/shared/types/result-types.js';
import { REPO_ROOT, runCli } from './support.js';
import { compileInUserProject } from './user-project.js';

const ECHO_SOURCE = readFileSync(join(REPO_ROOT, 'scenarios', 'echo.ts'), 'utf8');

test('scenarios/echo.ts imports only wsbench/scenario', () => {
  const specifiers = [...ECHO_SOURCE.matchAll(/^import[^;]*?from '([^']+)';$/gms)].map((m) => m[1]);
  assert.deepEqual(specifiers, ['wsbench/scenario']);
});

test('scenarios/echo.ts copied into a project with wsbench installed compiles and runs by path', {
  timeout: 120_000,
}, async () => {
  const { dir: project, errors } = compileInUserProject('my-echo.ts', ECHO_SOURCE);
  assert.equal(errors, '', 'tsc found errors');

  const out = join(project, 'result.json');
  const outcome = await runCli(
    ['run', './my-echo.js', '--servers', 'ws', '--clients', 'ws', '--duration', '500ms', '--out', out, '--json'],
    { cwd: project },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const [cell] = result.cells;
  assert.equal(cell?.status, 'ok', cell && 'reason' in cell ? cell.reason : 'no cell');
  assert.ok((cell.metrics.messagesPerSec ?? 0) > 0, 'replies were measured');
});
