/**
 * Bad `wsbench run <scenario>` input (echo unless named), case by case: exit 2, nothing on stdout, and
 * exactly one line on stderr. An expected line that ends in ': ' or '(' is a
 * prefix (the rest lists values that change as stacks and parameters do).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, usageErrorLine } from './support.js';

export type RefusedInput = [name: string, args: string[], line: string];

export function testRefusedRunInput(cases: readonly RefusedInput[], scenario = 'echo'): void {
  for (const [name, args, expected] of cases) {
    test(`bad input: ${name}`, async () => {
      const outcome = await runCli(['run', scenario, ...args]);
      const line = usageErrorLine(outcome);
      if (expected.endsWith(': ') || expected.endsWith('(')) assert.ok(line.startsWith(expected), line);
      else assert.equal(line, expected);
    });
  }
}
