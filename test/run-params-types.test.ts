/**
 * Parameters given to a built-in scenario by name are type-checked, in a
 * user's project (module nodenext, strict): a misspelt parameter or a wrong
 * choice fails tsc, in both forms of run(); right ones, and a scenario given
 * by path, compile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileInUserProject } from './user-project.js';

/** tsc's output for `source` in a user's project; '' when it compiled. */
const typeCheck = (source: string): string => compileInUserProject('bench.ts', source, { noEmit: true }).errors;

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
