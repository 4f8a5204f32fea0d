/**
 * The folders of src/, one per kind of process, and what each may import: the
 * rule test/folder-rule.test.ts holds the tree to and test/design-layers.test.ts
 * holds docs/design.md's layer table to. A child process (which may run under
 * Bun or Deno) and a browser page must never load the parent's code or its
 * packages: what they cannot run, or would pay to load for nothing.
 */
import type { FileImports } from './import-graph.js';
import { packageName } from './import-graph.js';

export type Group = 'src/shared' | 'src/child' | 'src/browser' | 'src/parent' | 'scenarios';

/** What the files of each group may import (their own group included). */
export const MAY_IMPORT: Record<Group, readonly Group[]> = {
  'src/shared': ['src/shared'],
  'src/child': ['src/shared', 'src/child'],
  'src/browser': ['src/shared', 'src/browser'],
  // The parent forks the children and asks the stack adapters what they support; nothing imports it back.
  'src/parent': ['src/shared', 'src/child', 'src/parent'],
  // Through `wsbench/scenario` (src/shared/scenario-kit/); test/scenario-imports.test.ts says the rest.
  scenarios: ['src/shared', 'scenarios'],
};

/** Packages only the parent loads (reports, charts, statistics, the CLI, certificates, plans). */
export const PARENT_ONLY_PACKAGES = [
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

/** The group a file belongs to by its folder; null for a file of src/ outside the four. */
export function groupOf(file: string): Group | null {
  const groups = Object.keys(MAY_IMPORT) as Group[];
  return groups.find((group) => file.startsWith(`${group}/`)) ?? null;
}

/** Every import that breaks the rule, one line each; a file outside the groups is one too. */
export function folderRuleViolations(graph: Map<string, FileImports>): string[] {
  const problems: string[] = [];
  for (const [file, imports] of graph) {
    const group = groupOf(file);
    if (group === null) {
      problems.push(`${file} is in none of ${Object.keys(MAY_IMPORT).join(', ')}: every file sits where it runs`);
      continue;
    }
    for (const target of imports.files) {
      const to = groupOf(target);
      if (to === null || !MAY_IMPORT[group].includes(to))
        problems.push(`${file} imports ${target}: ${group}/ may import ${MAY_IMPORT[group].join(', ')} only`);
    }
    if (group === 'src/parent') continue;
    for (const name of imports.packages) {
      if (PARENT_ONLY_PACKAGES.includes(packageName(name)))
        problems.push(`${file} loads '${name}', a package only src/parent/ may load`);
    }
  }
  return problems;
}
