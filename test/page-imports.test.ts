/**
 * What a browser page loads: the scenario kit and the scenario files, from
 * the page's import map (src/child/runtimes/browser/page-imports.ts), which serves
 * `wsbench/scenario`, socket.io-client's browser bundle and stand-ins for
 * Node's built-in modules, and nothing else. A package any of them reaches by a
 * static import (hdr-histogram-js through a file that encodes histograms, say)
 * is one the page cannot resolve, and every browser cell would fail on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { importGraph, packageName } from './import-graph.js';
import { REPO_ROOT } from './support.js';

const PAGE_ENTRIES = [
  'src/shared/scenario-kit/index.ts',
  ...readdirSync(join(REPO_ROOT, 'scenarios'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join('scenarios', name)),
];
/** What the page's import map resolves besides files and Node's built-ins. */
const MAPPED = new Set(['wsbench', 'socket.io-client']);

test('the kit and the scenarios reach no package a browser page cannot resolve', () => {
  const graph = importGraph();
  const builtins = new Set(builtinModules);
  const problems: string[] = [];
  const seen = new Set(PAGE_ENTRIES);
  const queue = [...PAGE_ENTRIES];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const imports = graph.get(file);
    if (!imports) continue;
    for (const specifier of imports.packages) {
      const name = packageName(specifier);
      if (!builtins.has(name.replace(/^node:/, '')) && !MAPPED.has(name))
        problems.push(`${file} imports '${specifier}'`);
    }
    for (const target of imports.files) {
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  assert.deepEqual(problems, [], problems.join('\n'));
});
