/**
 * Adding a built-in scenario is its file in scenarios/ and its page in
 * docs/scenarios/, listed in docs/scenarios/README.md (src/parent/results/built-in-scenarios.ts
 * is generated: test/built-in-scenarios.test.ts says how), and in the README's
 * "Scenarios" list. A scenario without its page, its index line or its README
 * line, or a page or line for a scenario that is gone, fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtInScenarios } from '../src/child/scenario-loader.js';
import { REPO_ROOT } from './support.js';

const DOCS = join(REPO_ROOT, 'docs', 'scenarios');

test('every built-in scenario has its page in docs/scenarios/ and its line in the index', () => {
  const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
  const names = builtInScenarios();
  assert.ok(names.includes('echo'), `the built-ins: ${names.join(', ')}`);
  for (const name of names) {
    assert.ok(existsSync(join(DOCS, `${name}.md`)), `scenarios/${name}.ts has no page docs/scenarios/${name}.md`);
    assert.ok(index.includes(`(${name}.md)`), `docs/scenarios/README.md does not link ${name}.md`);
  }
  const pages = readdirSync(DOCS)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .map((file) => file.slice(0, -'.md'.length));
  assert.deepEqual(
    pages.filter((page) => !names.includes(page)),
    [],
    'pages of scenarios that are not built in',
  );
});

test("the README's Scenarios section lists every built-in scenario, and no other", () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Scenarios\n');
  assert.ok(start >= 0, 'the README has a "## Scenarios" section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const listed = [...section.matchAll(/^- \[([^\]]+)\]\(docs\/scenarios\/([^)]+)\.md\)/gm)].map((m) => {
    assert.equal(m[1], m[2], `the README links ${m[1]} to docs/scenarios/${m[2]}.md`);
    return m[1]!;
  });
  assert.deepEqual([...listed].sort(), builtInScenarios());
});
