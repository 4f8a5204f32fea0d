/**
 * src/parent/results/built-in-scenarios.ts says what the built-in scenarios declare: the
 * library's types check `params` given to a built-in by name against it, and
 * type the cells' `metrics` and `params` by it, so it must never drift from
 * scenarios/*.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { registrySource } from '../tools/built-in-scenarios.js';
import { REPO_ROOT } from './support.js';

const SOURCE_ROOT = dirname(realpathSync(join(REPO_ROOT, 'package.json')));

test("src/parent/results/built-in-scenarios.ts holds every built-in scenario's parameters and metric keys, as the scenarios declare them", async () => {
  const committed = readFileSync(join(SOURCE_ROOT, 'src', 'parent', 'results', 'built-in-scenarios.ts'), 'utf8');
  assert.equal(committed, await registrySource(), 'regenerate it: npm run generate');
});
