/**
 * The layers point down: no import loop among the files of src/ and scenarios/,
 * and none among the folders either, at any level (inside each folder, its files
 * and subfolders; a subfolder counts as one node with everything below it). A
 * graph without loops can be drawn with every arrow pointing down, so an import
 * that runs back up always closes a loop and fails here, naming the imports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join, relative } from 'node:path';
import { importGraph } from './import-graph.js';

/** A loop in the graph, as its nodes in order; null when there is none. */
function findLoop(nodes: string[], next: (node: string) => string[]): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    path.push(node);
    for (const target of next(node)) {
      if (state.get(target) === 'open') return [...path.slice(path.indexOf(target)), target];
      if (!state.has(target)) {
        const loop = visit(target);
        if (loop) return loop;
      }
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of nodes) {
    if (state.has(node)) continue;
    const loop = visit(node);
    if (loop) return loop;
  }
  return null;
}

const graph = new Map([...importGraph()].map(([file, imports]) => [file, imports.files]));

test('no file imports itself back through others', () => {
  const loop = findLoop([...graph.keys()], (file) => graph.get(file) ?? []);
  assert.equal(loop, null, `import loop: ${loop?.join(' -> ')}`);
});

test('no folder imports itself back through others, at any level', () => {
  const folders = new Set(['.', ...[...graph.keys()].flatMap((file) => ancestors(file))]);
  for (const folder of folders) {
    // The members of `folder`: its files and its subfolders, each subfolder standing for all below it.
    const memberOf = (file: string): string | null => {
      const rest = relative(folder, file);
      if (rest.startsWith('..')) return null;
      const [first, ...more] = rest.split('/');
      return more.length === 0 ? file : join(folder, first!);
    };
    const edges = new Map<string, Set<string>>();
    const why = new Map<string, string>();
    for (const [file, targets] of graph) {
      const from = memberOf(file);
      if (from === null) continue;
      for (const target of targets) {
        const to = memberOf(target);
        if (to === null || to === from) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)!.add(to);
        why.set(`${from} -> ${to}`, `${file} imports ${target}`);
      }
    }
    const loop = findLoop([...edges.keys()], (member) => [...(edges.get(member) ?? [])]);
    const steps = loop?.slice(1).map((to, i) => why.get(`${loop[i]} -> ${to}`));
    assert.equal(loop, null, `in ${folder}: loop ${loop?.join(' -> ')} (${steps?.join('; ')})`);
  }
});

/** Every folder that holds `file`, nearest last: src/parent/report/run/table.ts -> src, src/parent/report, src/parent/report/run. */
function ancestors(file: string): string[] {
  const parts = dirname(file).split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
