/**
 * `wsbench init [dir]`: a ready project for a scenario of your own. It writes
 * package.json (depending on this wsbench, with a copy of its tarball in
 * vendor/ when it was installed from one: see init-dependency.ts; tsc and
 * Node's types at the versions wsbench itself builds with), tsconfig.json
 * (nodenext, strict), scenario.ts (the client-only jsonrpc scenario of
 * templates/init/, to run against --target), plan.yaml (the test plan
 * `npm run bench` runs: the scenario, its target, its duration) and
 * .gitignore, so that `npm install && npm run bench -- --target ws://...`
 * works at once. It
 * writes only into a new or empty real folder (a symlink is refused), and
 * creates each file new, never through a link (safe-files.ts).
 */
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { subcommand } from './subcommand.js';
import { UsageError } from '../../shared/types/errors.js';
import { packageRoot, VENDOR_DIR, wsbenchDependency } from './init-dependency.js';
import { createNew, folderEntryAt, kindOf, realFolder } from '../../shared/safe-files.js';

/** Copied as they are: template file -> name in the new project. */
const TEMPLATES: Array<[string, string]> = [
  ['scenario.ts', 'scenario.ts'],
  ['plan.yaml', 'plan.yaml'],
  ['tsconfig.json', 'tsconfig.json'],
  ['gitignore', '.gitignore'],
];
/** The dev tools the project compiles with, pinned as wsbench pins them. */
const DEV_TOOLS = ['typescript', '@types/node'];
/** The port the printed example uses. */
const EXAMPLE_PORT = 8080;

export async function initFromArgs(args: string[]): Promise<number> {
  const command = subcommand('wsbench init')
    .description(
      'Write a project for a scenario of your own: package.json, tsconfig.json, scenario.ts, plan.yaml; then npm install && npm run bench -- --target ws://...',
    )
    .argument('[dir]', 'a new or empty folder', '.');
  command.parse(args, { from: 'user' });
  const dir = resolve(command.processedArgs[0] as string);
  checkEmpty(dir);

  const root = packageRoot();
  const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  realFolder(dir, 'give a new or empty folder (init writes only into a real one)');
  // Its real path: the path to a clone is relative to where the project really is.
  const dependency = wsbenchDependency(realpathSync(dir), root);
  const manifest = {
    name: packageName(dir),
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: { build: 'tsc -p .', bench: 'tsc -p . && wsbench run --config plan.yaml' },
    dependencies: { wsbench: dependency.spec },
    devDependencies: Object.fromEntries(DEV_TOOLS.map((name) => [name, own.devDependencies?.[name] ?? 'latest'])),
  };
  writeNew(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [template, name] of TEMPLATES)
    writeNew(join(dir, name), readFileSync(join(root, 'templates', 'init', template)));
  if (dependency.vendored) {
    realFolder(join(dir, VENDOR_DIR), 'init writes the tarball only into a real folder');
    writeNew(join(dir, dependency.vendored.path), dependency.vendored.content);
  }

  const shown = relative(process.cwd(), dir) || '.';
  const written = [
    'package.json',
    ...TEMPLATES.map(([, name]) => name),
    ...(dependency.vendored ? [dependency.vendored.path] : []),
  ];
  process.stdout.write(
    [
      `wrote ${shown}/: ${written.join(', ')}`,
      `wsbench dependency: ${dependency.spec} (${dependency.origin})`,
      'next:',
      ...(shown === '.' ? [] : [`  cd ${shown}`]),
      '  npm install',
      `  node node_modules/wsbench/examples/jsonrpc/server.mjs --port ${EXAMPLE_PORT} &   # a JSON-RPC server to try it on`,
      `  npm run bench -- --target ws://127.0.0.1:${EXAMPLE_PORT}/`,
      '',
    ].join('\n'),
  );
  return 0;
}

function checkEmpty(dir: string): void {
  const entry = folderEntryAt(dir);
  if (entry === null) return;
  if (entry.isSymbolicLink())
    throw new UsageError(
      `init: ${dir} is a symbolic link: give a new or empty folder (init writes only into a real one)`,
    );
  if (!entry.isDirectory()) throw new UsageError(`init: ${dir} is ${kindOf(entry)}: give a new or empty folder`);
  if (readdirSync(dir).length > 0) throw new UsageError(`init: ${dir} is not empty: give a new or empty folder`);
}

/** A project file, created new: a file or link put there since the folder was checked is refused, never replaced. */
function writeNew(path: string, content: string | Buffer): void {
  try {
    createNew(path, content);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `init: cannot write ${path} (${code === 'EEXIST' ? 'something was put there since the folder was checked' : (code ?? (error as Error).message)})`,
    );
  }
}

/** The folder's name as an npm package name; never `wsbench` itself, which npm refuses to depend on. */
function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '')
    .slice(0, 214);
  if (name === '') return 'my-wsbench-scenarios';
  return name === 'wsbench' ? 'wsbench-scenarios' : name;
}
