/**
 * The built-in scenarios are the examples: each is written on the public kit
 * alone, the way a user's scenario is. A file in scenarios/ imports
 * `wsbench/scenario` (the package's own name, as a user's file does), Node's
 * built-in modules, and files of its own scenario's folder: scenarios/NAME.ts
 * and scenarios/NAME/ hold one scenario, NAME/ what only it uses. Nothing of
 * src/, of another scenario, or of a shared folder beside them: what two
 * scenarios share belongs in the kit, documented, where a user can build on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { importSpecifiers } from './import-graph.js';
import { REPO_ROOT } from './support.js';

/** The one wsbench module a scenario file imports. */
const KIT = 'wsbench/scenario';

/**
 * What is wrong with the imports of the files in scenarios/, one line each.
 * `files` maps a path relative to scenarios/ (`chat.ts`, `chat/chat-room.ts`) to its text;
 * `folders` lists the folders directly in scenarios/.
 */
export function scenarioImportProblems(files: Map<string, string>, folders: string[]): string[] {
  const problems: string[] = [];
  const scenarios = new Set(
    [...files.keys()].filter((file) => !file.includes('/')).map((file) => file.replace(/\.ts$/, '')),
  );
  for (const folder of folders) {
    if (!scenarios.has(folder)) {
      problems.push(
        `scenarios/${folder}/ belongs to no scenario (no scenarios/${folder}.ts): what scenarios share goes into the kit, src/shared/scenario-kit/ (wsbench/scenario)`,
      );
    }
  }
  for (const [file, text] of files) {
    const own = file.split('/')[0]!.replace(/\.ts$/, '');
    for (const specifier of importSpecifiers(text)) {
      const problem = importProblem(file, own, specifier);
      if (problem) problems.push(`scenarios/${file} imports '${specifier}': ${problem}`);
    }
  }
  return problems;
}

function importProblem(file: string, own: string, specifier: string): string | null {
  if (specifier === KIT || specifier.startsWith('node:')) return null;
  if (specifier === 'wsbench' || specifier.startsWith('wsbench/'))
    return `a scenario imports ${KIT} only (what a user's scenario imports)`;
  if (!specifier.startsWith('.')) {
    return specifier.startsWith('/') ? 'an absolute path' : `a package: the built-ins are written on ${KIT} alone`;
  }
  // The target as a path from scenarios/; `..` leaves it.
  const target = normalize(join(dirname(file), specifier));
  if (target.startsWith('..'))
    return `outside scenarios/ (${target.startsWith('../src/') ? 'src/ is not the public kit' : 'not a scenario file'}): import it from ${KIT}`;
  if (target.startsWith(`${own}/`) || target === `${own}.js`) return null;
  const other = target.split('/')[0]!.replace(/\.js$/, '');
  return `another scenario's file (${other}); what two scenarios share belongs in ${KIT}`;
}

/** scenarios/ as it is: every .ts file (declarations aside) by its path there, and the folders in it. */
function scenariosTree(): { files: Map<string, string>; folders: string[] } {
  const root = join(REPO_ROOT, 'scenarios');
  const files = new Map(
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
      .map((name) => [name, readFileSync(join(root, name), 'utf8')]),
  );
  const folders = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return { files, folders };
}

test("every file in scenarios/ imports wsbench/scenario, node: modules and its own scenario's folder only", () => {
  const { files, folders } = scenariosTree();
  assert.ok(files.has('echo.ts') && files.has('fanout.ts'), 'the walk finds the built-in scenarios');
  assert.ok(
    [...files.keys()].some((file) => file.includes('/')),
    "the walk reaches the scenarios' own folders",
  );
  assert.deepEqual(scenarioImportProblems(files, folders), []);
});

test('an import from src/, from a shared scenarios/lib/, from another scenario or of the whole library fails, naming the file', () => {
  const files = new Map([
    [
      'fanout.ts',
      "import { defineScenario } from 'wsbench/scenario';\nimport { monotonicUs } from '../src/measure/clock.js';\nimport { tick } from './fanout/price.js';",
    ],
    [
      'fanout/price.ts',
      "import { seededRandom } from 'wsbench/scenario';\nimport { share } from '../lib/connection-share.js';",
    ],
    [
      'chat.ts',
      "import { run } from 'wsbench';\nexport { tick } from './fanout/price.js';\nconst ws = await import('ws');\nimport { readFileSync } from 'node:fs';",
    ],
    ['chat/room.ts', "import type { Room } from '../chat.js';\nimport { other } from '../idle.js';"],
    ['lib/connection-share.ts', "import { sourceAddressFor } from 'wsbench/scenario';"],
  ]);
  assert.deepEqual(scenarioImportProblems(files, ['fanout', 'chat', 'lib']), [
    'scenarios/lib/ belongs to no scenario (no scenarios/lib.ts): what scenarios share goes into the kit, src/shared/scenario-kit/ (wsbench/scenario)',
    "scenarios/fanout.ts imports '../src/measure/clock.js': outside scenarios/ (src/ is not the public kit): import it from wsbench/scenario",
    "scenarios/fanout/price.ts imports '../lib/connection-share.js': another scenario's file (lib); what two scenarios share belongs in wsbench/scenario",
    "scenarios/chat.ts imports 'wsbench': a scenario imports wsbench/scenario only (what a user's scenario imports)",
    "scenarios/chat.ts imports './fanout/price.js': another scenario's file (fanout); what two scenarios share belongs in wsbench/scenario",
    "scenarios/chat.ts imports 'ws': a package: the built-ins are written on wsbench/scenario alone",
    "scenarios/chat/room.ts imports '../idle.js': another scenario's file (idle); what two scenarios share belongs in wsbench/scenario",
  ]);
});
