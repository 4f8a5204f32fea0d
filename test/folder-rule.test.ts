/**
 * Folders by process: every file of src/ sits in the folder of the process it
 * runs in (src/shared/, src/child/, src/browser/, src/parent/: test/folder-groups.ts),
 * and imports only what that process may load. The rule reads the folders, so a
 * new file is judged by where it is put; a planted import from the child into
 * the parent, in a tree of real files, must fail it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importGraph } from './import-graph.js';
import { folderRuleViolations, groupOf, MAY_IMPORT } from './folder-groups.js';
import { tempDir } from './support.js';

test('every file of src/ sits in its process folder and imports only what that process may load', () => {
  const graph = importGraph();
  const problems = folderRuleViolations(graph);
  assert.deepEqual(problems, [], `the folder rule is broken:\n${problems.join('\n')}`);
});

test('the groups hold what runs there: the child entries, the page, the kit, the CLI', () => {
  const graph = importGraph();
  for (const [file, group] of [
    ['src/child/client-process.ts', 'src/child'],
    ['src/child/server-process.ts', 'src/child'],
    ['src/browser/page/main.ts', 'src/browser'],
    ['src/shared/scenario-kit/index.ts', 'src/shared'],
    ['src/parent/cli.ts', 'src/parent'],
  ] as const) {
    assert.ok(graph.has(file), `${file} is not a source file: an entry point moved`);
    assert.equal(groupOf(file), group);
  }
  for (const group of Object.keys(MAY_IMPORT))
    assert.ok(
      [...graph.keys()].some((file) => file.startsWith(`${group}/`)),
      `${group}/ holds no source file`,
    );
});

/** A tree of source files at a temporary root, `path: text` each. */
function plantTree(files: Record<string, string>): string {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('a planted import from the child into the parent fails the rule, as does a parent-only package outside the parent', () => {
  const root = plantTree({
    'src/shared/units.ts': 'export const MS = 1;\n',
    'src/child/client-process.ts':
      "import { MS } from '../shared/units.js';\nimport { plan } from '../parent/engine/plan.js';\nexport const x = MS + plan;\n",
    'src/parent/engine/plan.ts': "import { MS } from '../../shared/units.js';\nexport const plan = MS;\n",
    'src/browser/page/main.ts':
      "import { MS } from '../../shared/units.js';\nimport Ajv from 'ajv';\nexport const y = [MS, Ajv];\n",
    'src/loose.ts': 'export const z = 1;\n',
  });
  assert.deepEqual(folderRuleViolations(importGraph(root)).sort(), [
    "src/browser/page/main.ts loads 'ajv', a package only src/parent/ may load",
    'src/child/client-process.ts imports src/parent/engine/plan.ts: src/child/ may import src/shared, src/child only',
    'src/loose.ts is in none of src/shared, src/child, src/browser, src/parent, scenarios: every file sits where it runs',
  ]);
});
