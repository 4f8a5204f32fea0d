/**
 * The published declarations, as a stranger's project compiles them: the tarball `npm pack` makes,
 * installed into an empty project, type-checked by TypeScript 5 and 7 (both the checkout's: nothing
 * is downloaded) with `strict`, `module: nodenext`, no `types` setting and no skipLibCheck. TypeScript
 * 6+ no longer loads @types/node unless asked, which is where the declarations once failed
 * (`Cannot find name 'node:http'`). The consumer reads typed results (a built-in's and its own
 * scenario's), and each mistake typing must catch sits under `// @ts-expect-error`: a compile that
 * no longer reports it fails (TS2578). A CommonJS file uses the one line the docs give it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packAndInstall, type PackedInstall } from './packed-install.js';
import { REPO_ROOT } from './support.js';

const execFileAsync = promisify(execFile);
/** One compile of the whole declaration graph took ~20 s with TypeScript 5 on a busy 2-core machine. */
const TSC_DEADLINE_MS = 180_000;

/**
 * The two compilers, as the checkout's devDependencies install them (typescript7 is an npm alias), and
 * the consumer's projects each compiles. The scenario file alone matters only where @types/node is not
 * loaded by default (7); TypeScript 5 loads it, and takes ~20 s a project.
 */
const COMPILERS = [
  {
    label: 'TypeScript 5',
    bin: join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    version: /^Version 5\./,
    projects: ['tsconfig.json'],
  },
  {
    label: 'TypeScript 7',
    bin: join(REPO_ROOT, 'node_modules', 'typescript7', 'bin', 'tsc'),
    version: /^Version 7\./,
    projects: ['tsconfig.json', 'tsconfig.scenario.json'],
  },
];

/** ESM, as the package is: a built-in run, a scenario of its own, and the mistakes typing catches. */
const BENCH = `import { run, isMeasured, renderTable, type BenchResult, type ResultOf } from 'wsbench';
import { defineScenario, latencyMetrics, total } from 'wsbench/scenario';

const result = await run('echo', { servers: ['ws', 'uws'], clients: ['ws'], params: { duration: '1s', payload: [32, '4kb'] } });
for (const cell of result.cells) {
  if (!isMeasured(cell)) continue;
  const p99: number | null = cell.metrics.rttP99Ms;
  const payload: number = cell.params.payload;
  // @ts-expect-error a misspelt metric key
  const typo = cell.metrics.rttP99MS;
  console.log(p99, payload, typo);
}
const same: ResultOf<'echo'> = await run({ scenario: 'echo', params: { inflight: 4 } });
const wide: BenchResult = same;
console.log(renderTable(wide));

// @ts-expect-error a server stack that does not exist
await run('echo', { servers: ['wss'] });
// @ts-expect-error a client stack that does not exist
await run('echo', { clients: ['undicci'] });
// @ts-expect-error a built-in scenario that does not exist
await run('echoo');
await run('echo', { targets: [{ name: 'mine', url: 'ws://127.0.0.1:9000/' }], servers: ['mine', 'ws'] });

const ping = defineScenario({
  name: 'ping',
  description: 'one round trip at a time',
  parameters: { count: { kind: 'integer', description: 'round trips', default: 10, min: 1 } },
  async client() {},
  metrics: { ...latencyMetrics('rtt', { stats: ['p50', 'p99'] }), sent: total('sent', 'sent') },
  table: ['rttP50Ms', 'sent'],
});
const own = await run(ping, { params: { count: 5 } });
for (const cell of own.cells) {
  if (cell.status !== 'ok') continue;
  const count: number = cell.params.count;
  console.log(count, cell.metrics.rttP50Ms, cell.metrics.sent);
  // @ts-expect-error a statistic the scenario did not declare
  console.log(cell.metrics.rttP90Ms);
}

// A scenario named at run time (the CLI's way): any name, any key.
const [named = 'echo', ...stacks] = JSON.parse('["echo", "ws"]') as string[];
const anyResult = await run(named, { servers: stacks, clients: stacks, params: { anything: 1 } });
for (const cell of anyResult.cells) if (isMeasured(cell)) console.log(cell.metrics['whatever']);
`;

/**
 * CommonJS: the package is ESM-only, and this is the line docs/library.md gives such a project. A static
 * import would be a require() that Node refuses (ERR_PACKAGE_PATH_NOT_EXPORTED): the types refuse it too.
 */
const COMMONJS = `// @ts-expect-error an ES module only: no require() of it
import { run as required } from 'wsbench';
export const kept = required;

async function main(): Promise<void> {
  const { run } = await import('wsbench');
  const result = await run('echo', { params: { duration: '1s' } });
  for (const cell of result.cells) if (cell.status === 'ok') console.log(cell.metrics.rttP50Ms);
}
void main();
`;

/** A scenario file alone: 'wsbench/scenario' compiles without the main entry point beside it. */
const SCENARIO_ONLY = `import { defineScenario, latencyMetrics } from 'wsbench/scenario';

export default defineScenario({
  name: 'alone',
  description: 'the kit without the library',
  parameters: {},
  async client(ctx) {
    ctx.histogram('rtt').recordUs(1);
  },
  metrics: { ...latencyMetrics('rtt') },
  table: ['rttP99Ms'],
});
`;

let installed: PackedInstall;
before(async () => {
  installed = await packAndInstall();
  const dir = installed.projectDir;
  writeFileSync(join(dir, 'bench.mts'), BENCH);
  writeFileSync(join(dir, 'commonjs.cts'), COMMONJS);
  writeFileSync(join(dir, 'alone.mts'), SCENARIO_ONLY);
  // What a user writes: strict, nodenext, and nothing about `types` or skipLibCheck.
  const compilerOptions = { module: 'nodenext', strict: true, noEmit: true };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['bench.mts', 'commonjs.cts'] }));
  writeFileSync(join(dir, 'tsconfig.scenario.json'), JSON.stringify({ compilerOptions, files: ['alone.mts'] }));
});
after(() => installed?.remove());

/** tsc's output for a project of the consumer ('' when it compiled cleanly), and the compiler's version. */
async function compile(bin: string, project: string): Promise<string> {
  try {
    await execFileAsync(process.execPath, [bin, '-p', join(installed.projectDir, project)], {
      cwd: installed.projectDir,
      timeout: TSC_DEADLINE_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    return '';
  } catch (error) {
    const failed = error as Error & { stdout?: string; stderr?: string };
    return failed.stdout || failed.stderr || failed.message;
  }
}

for (const { label, bin, version, projects } of COMPILERS) {
  test(`${label}: a strict nodenext consumer of the installed tarball compiles, and its expected errors are reported`, async () => {
    const { stdout } = await execFileAsync(process.execPath, [bin, '--version']);
    assert.match(stdout, version, `${bin} is ${label}`);
    const outputs = await Promise.all(projects.map((project) => compile(bin, project)));
    projects.forEach((project, i) => {
      assert.equal(outputs[i], '', `${project} under ${label}`);
    });
  });
}
