/**
 * The child side stays free of the parent. The forked client and server
 * processes (src/child/), which may run under Bun or Deno, the browser page,
 * and the scenario files they load must never load the engine or anything
 * beside or above it (reports, shards, the CLI), nor the packages only the
 * parent needs (ajv, vega, commander, ...): every such import is code a child
 * runtime must load and may not support. Walks the imports from the child
 * entry points and fails naming the chain of imports that reaches one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { importGraph, packageName, type FileImports } from './import-graph.js';
import { REPO_ROOT } from './support.js';

/** Where code runs outside the parent: the two child entries, the page's entry, and what a scenario loads. */
const CHILD_ENTRIES = [
  'src/child/client-process.ts',
  'src/child/server-process.ts',
  'src/browser/page/main.ts',
  'src/shared/scenario-kit/index.ts',
  ...readdirSync(join(REPO_ROOT, 'scenarios'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join('scenarios', name)),
];
/** The parent's folders: the engine, and what sits beside or above it. */
const PARENT_ONLY_FOLDERS = [
  'src/parent/engine/',
  'src/parent/report/',
  'src/parent/compare/',
  'src/parent/formats/',
  'src/parent/live/',
  'src/parent/shard/',
  'src/parent/capacity/',
  'src/parent/journal/',
  'src/parent/commands/',
  'src/parent/stats/',
  'src/parent/slo/',
];
/** Packages only the parent loads (reports, charts, statistics, the CLI, certificates). */
const PARENT_ONLY_PACKAGES = [
  'ajv',
  'commander',
  'vega',
  'vega-lite',
  '@resvg/resvg-js',
  'simple-statistics',
  '@stdlib/stats-base-dists-t-quantile',
  'yaml',
  '@peculiar/x509',
];

/**
 * What the child side reaches that it must not, one line each: the chain of
 * imports from an entry to a file in a parent folder, or to a parent-only package.
 */
export function childSideViolations(
  graph: Map<string, FileImports>,
  entries: string[],
  parentFolders: string[],
  parentPackages: string[],
): string[] {
  const problems: string[] = [];
  const cameFrom = new Map<string, string | null>(entries.map((entry) => [entry, null]));
  const chain = (file: string): string => {
    const steps = [file];
    for (let at = cameFrom.get(file); at; at = cameFrom.get(at)) steps.unshift(at);
    return steps.join(' -> ');
  };
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const folder = parentFolders.find((f) => file.startsWith(f));
    if (folder !== undefined) {
      problems.push(`${chain(file)}: ${file} is the parent's (${folder})`);
      continue;
    }
    for (const name of graph.get(file)?.packages ?? []) {
      if (parentPackages.includes(packageName(name)))
        problems.push(`${chain(file)} loads '${name}', a package only the parent may load`);
    }
    for (const target of graph.get(file)?.files ?? []) {
      if (cameFrom.has(target)) continue;
      cameFrom.set(target, file);
      queue.push(target);
    }
  }
  return problems;
}

const graph = importGraph();

test('the child processes, the browser page and the scenarios load nothing of the parent', () => {
  const problems = childSideViolations(graph, CHILD_ENTRIES, PARENT_ONLY_FOLDERS, PARENT_ONLY_PACKAGES);
  assert.deepEqual(problems, [], `the child side reaches parent-only code:\n${problems.join('\n')}`);
});

test('the walk starts where children start and reaches what they record with', () => {
  for (const entry of CHILD_ENTRIES)
    assert.ok(graph.has(entry), `${entry} is not a source file: the child entry points moved`);
  for (const folder of PARENT_ONLY_FOLDERS) {
    assert.ok(
      [...graph.keys()].some((file) => file.startsWith(folder)),
      `${folder} holds no source file: the parent's folders moved`,
    );
  }
  const reached = new Set(CHILD_ENTRIES);
  for (const file of reached) for (const target of graph.get(file)?.files ?? []) reached.add(target);
  for (const expected of ['src/shared/measure/metrics.ts', 'src/child/ipc.ts', 'src/child/stacks.ts', 'src/shared/scenario-kit/index.ts']) {
    assert.ok(reached.has(expected), `the walk from the child entries never reaches ${expected}`);
  }
});

test('an import from the child side into the engine fails, naming the chain', () => {
  const fake = new Map<string, FileImports>([
    ['src/child/client-process.ts', { files: ['src/shared/measure/metrics.ts'], packages: ['hdr-histogram-js'] }],
    ['src/shared/measure/metrics.ts', { files: ['src/parent/result-output.ts'], packages: ['ajv/dist/2020.js'] }],
    ['src/parent/result-output.ts', { files: ['src/parent/engine/plan.ts'], packages: [] }],
    ['src/parent/engine/plan.ts', { files: [], packages: [] }],
  ]);
  assert.deepEqual(
    childSideViolations(fake, ['src/child/client-process.ts'], PARENT_ONLY_FOLDERS, PARENT_ONLY_PACKAGES),
    [
      "src/child/client-process.ts -> src/shared/measure/metrics.ts loads 'ajv/dist/2020.js', a package only the parent may load",
      "src/child/client-process.ts -> src/shared/measure/metrics.ts -> src/parent/result-output.ts -> src/parent/engine/plan.ts: src/parent/engine/plan.ts is the parent's (src/parent/engine/)",
    ],
  );
});
