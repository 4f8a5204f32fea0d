/**
 * Parameters given to a built-in scenario by name are type-checked, in a
 * user's project (module nodenext, strict): a misspelt parameter or a wrong
 * choice fails tsc, in both forms of run(); right ones, and a scenario given
 * by path, compile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileFilesInUserProject } from './user-project.js';

const WRONG = [
  "import { run } from 'wsbench';",
  "await run('echo', { params: { duraton: '1s' } });",
  "await run({ scenario: 'echo', params: { duraton: '1s' } });",
  "await run('push-vs-poll', { params: { test: 'sustaine' } });",
  '',
].join('\n');
const RIGHT = [
  "import { run } from 'wsbench';",
  "await run('echo', { servers: ['ws'], params: { duration: '1s', payload: [32, '4kb'], deflate: 'on' } });",
  "await run({ scenario: 'fanout', params: { connections: [10, 100], interval: 50 } });",
  "await run('./my-scenario.js', { params: { whatever: 1 } });",
  '',
].join('\n');

/** Both files type-checked by one tsc in one user's project (a tsc start costs seconds); each is a module of its own. */
let compiled: string | undefined;
const tscOutput = (): string =>
  (compiled ??= compileFilesInUserProject({ 'bench.ts': WRONG, 'right.ts': RIGHT }, { noEmit: true }).errors);
/** tsc's output split into its messages: an error starts with its place (file.ts(line,column)), or with `error` when it has none; an overload's reasons follow on the lines after it. */
const messagesOf = (output: string): string[] =>
  output.split(/^(?=\S*\.ts\(\d+,\d+\): error|error )/m).filter((text) => text !== '');
const inBench = (text: string): boolean => /^\S*bench\.ts\(\d+,\d+\): error/.test(text);

test('a misspelt parameter of a built-in, or a choice it does not have, fails tsc', () => {
  const output = tscOutput();
  const errors = messagesOf(output).filter(inBench);
  assert.deepEqual(
    errors.map((text) => /bench\.ts\((\d+),\d+\): error (TS\d+)/.exec(text)?.slice(1)),
    [
      ['2', 'TS2561'],
      ['3', 'TS2769'],
      ['4', 'TS2820'],
    ],
    output,
  );
  assert.match(errors[0]!, /'duraton' does not exist .*Did you mean to write 'duration'\?/);
  assert.match(errors[1]!, /'duraton' does not exist .*Did you mean to write 'duration'\?/);
  assert.match(errors[2]!, /Type '"sustaine"' is not assignable/);
});

test('right parameters of a built-in, and any of a scenario given by path, compile', () => {
  const output = tscOutput();
  // All tsc printed is bench.ts's errors (the test above names them): nothing about right.ts, nothing else.
  assert.notEqual(output, '', 'bench.ts was type-checked in the same program');
  assert.deepEqual(
    messagesOf(output).filter((text) => !inBench(text)),
    [],
    output,
  );
});
