/**
 * The scenario file of docs/writing-a-scenario.md (linked from the README) is the fixture
 * test/fixtures/user-scenario.ts (only the import differs), and it type-checks as a user
 * would compile it: importing the kit, `wsbench/scenario`, with module nodenext and strict.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, tempDir } from './support.js';

const DOCS_PAGE = 'docs/writing-a-scenario.md';
const DOCS_IMPORT = "from 'wsbench/scenario';";
const FIXTURE_IMPORT = "from '../../src/scenario-kit/index.js';";

function docsScenario(): string {
  const page = readFileSync(join(REPO_ROOT, DOCS_PAGE), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(page);
  assert.ok(block, `${DOCS_PAGE} has a \`\`\`ts block`);
  return block[1]!;
}

test(`the scenario of ${DOCS_PAGE} is the tested fixture, importing wsbench/scenario`, () => {
  const fixture = readFileSync(join(REPO_ROOT, 'test/fixtures/user-scenario.ts'), 'utf8');
  assert.equal(docsScenario(), fixture.replace(FIXTURE_IMPORT, DOCS_IMPORT));
});

test(`the scenario of ${DOCS_PAGE} type-checks in a user's project (module nodenext, strict)`, () => {
  const project = tempDir();
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(REPO_ROOT, join(project, 'node_modules', 'wsbench'));
  symlinkSync(join(REPO_ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(project, 'heartbeat.ts'), docsScenario());
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: ['node'] }, files: ['heartbeat.ts'] }),
  );
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  } catch (error) {
    assert.fail(`tsc found errors:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
  }
});
