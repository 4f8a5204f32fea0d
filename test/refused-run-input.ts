/**
 * Bad `wsbench run echo` input, case by case: exit 2, nothing on stdout, and
 * exactly one line on stderr. An expected line that ends in ': ' or '(' is a
 * prefix (the rest lists values that change as stacks and parameters do).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from './support.js';

export type RefusedInput = [name: string, args: string[], line: string];

export function testRefusedRunInput(cases: readonly RefusedInput[]): void {
  for (const [name, args, expected] of cases) {
    test(`bad input: ${name}`, async () => {
      const outcome = await runCli(['run', 'echo', ...args]);
      assert.equal(outcome.code, 2, outcome.stderr);
      assert.equal(outcome.stdout, '');
      const lines = outcome.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `one line, got: ${outcome.stderr}`);
      if (expected.endsWith(': ') || expected.endsWith('(')) assert.ok(lines[0]!.startsWith(expected), lines[0]);
      else assert.equal(lines[0], expected);
    });
  }
}
