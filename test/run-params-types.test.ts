/**
 * Parameters given to a built-in scenario by name are type-checked, in a
 * user's project (module nodenext, strict): a misspelt parameter or a wrong
 * choice fails tsc, in both forms of run(); right ones, and a scenario given
 * by path, compile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, tempDir } from './support.js';

/** Runs tsc over `source` in a project with wsbench installed (linked); returns tsc's output, '' when it compiled. */
function typeCheck(source: string): string {
  const project = tempDir();
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(REPO_ROOT, join(project, 'node_modules', 'wsbench'));
  symlinkSync(join(REPO_ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(project, 'bench.ts'), source);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: ['node'] }, files: ['bench.ts'] }),
  );
  try {
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { encoding: 'utf8' });
    return '';
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}

test('a misspelt parameter of a built-in, or a choice it does not have, fails tsc', () => {
  const output = typeCheck([
    "import { run } from 'wsbench';",
    "await run('echo', { params: { duraton: '1s' } });",
    "await run({ scenario: 'echo', params: { duraton: '1s' } });",
    "await run('push-vs-poll', { params: { test: 'sustaine' } });",
    '',
  ].join('\n'));
  // Each error starts with its place (bench.ts(line,column)); an overload's reasons follow on the lines after it.
  const errors = output.split(/^(?=\S*bench\.ts\(\d+,\d+\): error)/m).filter((text) => /bench\.ts\(/.test(text));
  assert.deepEqual(errors.map((text) => /bench\.ts\((\d+),\d+\): error (TS\d+)/.exec(text)?.slice(1)), [['2', 'TS2561'], ['3', 'TS2769'], ['4', 'TS2820']], output);
  assert.match(errors[0]!, /'duraton' does not exist .*Did you mean to write 'duration'\?/);
  assert.match(errors[1]!, /'duraton' does not exist .*Did you mean to write 'duration'\?/);
  assert.match(errors[2]!, /Type '"sustaine"' is not assignable/);
});

test('right parameters of a built-in, and any of a scenario given by path, compile', () => {
  const output = typeCheck([
    "import { run } from 'wsbench';",
    "await run('echo', { servers: ['ws'], params: { duration: '1s', payload: [32, '4kb'], deflate: 'on' } });",
    "await run({ scenario: 'fanout', params: { connections: [10, 100], interval: 50 } });",
    "await run('./my-scenario.js', { params: { whatever: 1 } });",
    '',
  ].join('\n'));
  assert.equal(output, '');
});
