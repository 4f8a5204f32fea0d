/**
 * The client(ctx) scenario of docs/writing-a-scenario.md (linked from the README) is the fixture
 * test/fixtures/user-scenario.ts (only the import differs), and it type-checks as a user
 * would compile it: importing the kit, `wsbench/scenario`, with module nodenext and strict.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './support.js';
import { compileInUserProject } from './user-project.js';

const DOCS_PAGE = 'docs/writing-a-scenario.md';
const DOCS_IMPORT = "from 'wsbench/scenario';";
const FIXTURE_IMPORT = "from '../../src/shared/scenario-kit/index.js';";

/** The page's client(ctx) example: its ```ts block that starts `// heartbeat.ts` (the page leads with the per-connection one). */
function docsScenario(): string {
  const page = readFileSync(join(REPO_ROOT, DOCS_PAGE), 'utf8');
  const block = /```ts\n(\/\/ heartbeat\.ts[\s\S]*?)```/.exec(page);
  assert.ok(block, `${DOCS_PAGE} has a \`\`\`ts block starting // heartbeat.ts`);
  return block[1]!;
}

test(`the scenario of ${DOCS_PAGE} is the tested fixture, importing wsbench/scenario`, () => {
  const fixture = readFileSync(join(REPO_ROOT, 'test/fixtures/user-scenario.ts'), 'utf8');
  assert.equal(docsScenario(), fixture.replace(FIXTURE_IMPORT, DOCS_IMPORT));
});

test(`the scenario of ${DOCS_PAGE} type-checks in a user's project (module nodenext, strict)`, () => {
  assert.equal(compileInUserProject('heartbeat.ts', docsScenario(), { noEmit: true }).errors, '', 'tsc found errors');
});
