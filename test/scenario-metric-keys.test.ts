/**
 * Every built-in scenario's page lists the keys of its cells' `metrics` in its "Metric keys" section
 * (tools/metric-key-docs.ts), each with its unit: a key the scenario declares and the page misses, a
 * key the page lists that the scenario does not declare, or a unit that differs, fails here, naming
 * the rows to add (worded from the declarations).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtInScenarios } from '../src/child/scenario-loader.js';
import { declaredMetrics, documentedKeys, rowOf, SECTION_HEADING } from '../tools/metric-key-docs.js';
import { REPO_ROOT } from './support.js';

const names = builtInScenarios();

test('there are built-in scenarios to check', () => {
  assert.ok(names.includes('echo') && names.length > 5, `the built-ins: ${names.join(', ')}`);
});

for (const name of names) {
  test(`docs/scenarios/${name}.md lists every metric key of ${name}, with its unit, and no other`, async () => {
    const page = `docs/scenarios/${name}.md`;
    const declared = await declaredMetrics(name);
    const documented = documentedKeys(readFileSync(join(REPO_ROOT, page), 'utf8'));
    assert.ok(
      documented,
      `${page} has no "## ${SECTION_HEADING}" section: print it with node dist/tools/metric-key-docs.js ${name}`,
    );
    const listed = new Set(documented.map((row) => row.key));
    const missing = Object.entries(declared).filter(([key]) => !listed.has(key));
    assert.deepEqual(
      missing.map(([key]) => key),
      [],
      `${page} misses keys; rows to add:\n${missing.map(([key, metric]) => rowOf(key, metric)).join('\n')}`,
    );
    assert.deepEqual(
      documented.map((row) => row.key).filter((key) => !(key in declared)),
      [],
      `${page} lists keys ${name} does not declare`,
    );
    const twice = documented.map((row) => row.key).filter((key, i, all) => all.indexOf(key) !== i);
    assert.deepEqual(twice, [], `${page} lists keys twice`);
    const wrongUnits = documented
      .filter((row) => declared[row.key] && declared[row.key]!.unit !== row.unit)
      .map((row) => `${row.key}: ${row.unit}, declared ${declared[row.key]!.unit}`);
    assert.deepEqual(wrongUnits, [], `${page}: units that differ from the declarations`);
  });
}
