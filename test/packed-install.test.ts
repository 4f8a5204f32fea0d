/**
 * The tarball `npm pack` makes, installed into an empty project with nothing
 * of the repository around it, is complete: it carries its licence and every
 * file its help texts, messages and docs point to, and `npx wsbench` runs
 * every stack from it, Bun and Deno from their installed packages; `wsbench
 * init` there makes a project whose `npm install && npm run bench` works first
 * try. One pack and install serves every test of this file.
 *
 * Slow (about 2 minutes beside two busy loops): it packs the checkout and installs the tarball (~400 MB written), then runs wsbench from it and a project `wsbench init` made.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { documentationPages, linkProblem, links } from '../tools/markdown.js';
import { npm, npmEnv, offlineLock, packAndInstall, type PackedInstall } from './packed-install.js';
import { startPrintingServer } from './foreign-processes.js';
import { REPO_ROOT, runCli } from './support.js';
import { NO_CHROMIUM } from './browser-support.js';
import { asRepository, unignoredFiles } from './clone-status.js';
import {
  FIGURES,
  FIGURE_TOLERANCE,
  installFigures,
  packFigures,
  quotedFigures,
  staleFigures,
} from './package-figures.js';
import { isMeasured, type BenchResult } from '../src/parent/index.js';
import type { RuntimeInfo, StackInfo } from '../src/shared/types/result-types.js';

/** What `wsbench list --json` prints, as far as these tests read it. */
interface Listing {
  runtimes: RuntimeInfo[];
  stacks: StackInfo[];
}

let installed: PackedInstall;
before(async () => {
  installed = await packAndInstall();
});
after(() => installed?.remove());

/** A path into the package named in text: `docs/protocols/echo.md`, `examples/python/` (a sentence's full stop dropped). */
const PACKAGE_PATH = /(?<![\w./-])(?:docs|examples)\/[\w./-]*/g;
const pathsIn = (text: string): string[] =>
  [...text.matchAll(PACKAGE_PATH)].map((match) => match[0].replace(/\.+$/, ''));

/** The command names a top-level help lists, in commander's layout (one per line under "Commands:") or as a sentence ("Commands: run, list."). */
function commandsIn(help: string): string[] {
  const block = /^Commands:\n((?: {2,}\S.*\n?)+)/m.exec(help);
  if (block)
    return block[1]!
      .split('\n')
      .map((line) => line.trim().split(/\s/)[0]!)
      .filter((name) => name !== '' && name !== 'help');
  const sentence = /Commands: ([\w, -]+)\./.exec(help);
  return sentence ? sentence[1]!.split(',').map((name) => name.trim()) : [];
}

function filesUnder(directory: string, suffix: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(directory, name));
}

test('the tarball holds LICENSE (MIT), the README, docs/ and examples/, and a source map only with the sources it maps', (t) => {
  t.diagnostic(
    `npm pack ${installed.packSeconds.toFixed(1)} s, npm ci from the tarball (offline) ${installed.installSeconds.toFixed(1)} s`,
  );
  const files = installed.packedFiles;
  for (const file of [
    'LICENSE',
    'README.md',
    'bin/wsbench.js',
    'dist/src/parent/cli.js',
    'docs/README.md',
    'docs/protocols/README.md',
    'examples/python/requirements.txt',
  ]) {
    assert.ok(files.includes(file), `${file} is in the tarball`);
  }
  const manifest = JSON.parse(readFileSync(join(installed.packageDir, 'package.json'), 'utf8')) as { license: string };
  assert.equal(manifest.license, 'MIT');
  assert.match(readFileSync(join(installed.packageDir, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) \d{4} \S/);

  const unmapped: string[] = [];
  for (const map of files.filter((file) => file.endsWith('.map'))) {
    const { sources, sourceRoot } = JSON.parse(readFileSync(join(installed.packageDir, map), 'utf8')) as {
      sources: string[];
      sourceRoot?: string;
    };
    for (const source of sources) {
      const path = relative(
        installed.packageDir,
        resolve(installed.packageDir, dirname(map), sourceRoot ?? '', source),
      );
      if (!files.includes(path)) unmapped.push(`${map} -> ${path}`);
    }
  }
  assert.deepEqual(unmapped, [], 'source maps whose sources are not in the tarball');
  assert.deepEqual(
    files.filter((file) => /(^|\/)(__pycache__|\.venv|node_modules)\//.test(file)),
    [],
  );
});

// Before the other tests write anything into the project: node_modules as the install left it.
test(`the sizes the docs quote are this tarball's and this install's, within ${FIGURE_TOLERANCE * 100} % (node scripts/package-size.mjs --install --write rewrites them)`, (t) => {
  const measured = new Map([...packFigures(installed.packed), ...installFigures(installed.projectDir)]);
  t.diagnostic([...measured].map(([key, value]) => `${key} ${FIGURES[key]!.show(value)}`).join(', '));
  const quoted = new Set(quotedFigures(REPO_ROOT).map((figure) => figure.key));
  assert.deepEqual(
    Object.keys(FIGURES).filter((key) => !quoted.has(key)),
    [],
    'figures measured but quoted nowhere (a marker lost?)',
  );
  assert.deepEqual(staleFigures(REPO_ROOT, measured), []);
});

/** The scripts npm runs when it installs a package, or lists for review when the package comes from a tarball. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

test('the installed package.json runs nothing at install, and no script of it names a file the package lacks', () => {
  const { scripts = {} } = JSON.parse(readFileSync(join(installed.packageDir, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  assert.deepEqual(
    Object.keys(scripts).filter((name) => INSTALL_SCRIPTS.includes(name)),
    [],
    'install scripts in the installed package.json',
  );
  // A path in a command: `scripts/build.mjs`, `dist/test/run-suite.js`.
  const missing = Object.entries(scripts).flatMap(([name, command]) =>
    (command.match(/[\w.-]+\/[\w./-]+/g) ?? [])
      .filter((path) => !existsSync(join(installed.packageDir, path)))
      .map((path) => `${name}: ${path}`),
  );
  assert.deepEqual(missing, [], 'files the scripts of the installed package.json run');
});

test('`npm install-scripts ls` in the project does not name wsbench (`npm install ./wsbench-*.tgz` warns about what it names)', async (t) => {
  // Without the hidden lockfile npm reads every installed package.json, as an install from the bare tarball does.
  const hidden = join(installed.projectDir, 'node_modules', '.package-lock.json');
  renameSync(hidden, `${hidden}.aside`);
  let listed: string;
  try {
    listed = await npm(['install-scripts', 'ls', '--json'], installed.projectDir);
  } catch (error) {
    if (/Unknown command/i.test((error as Error).message))
      return t.skip('this npm has no install-scripts command (nor the warning it explains)');
    throw error;
  } finally {
    renameSync(`${hidden}.aside`, hidden);
  }
  const { allowScripts = [] } = JSON.parse(listed) as { allowScripts?: Array<{ name: string }> };
  t.diagnostic(`packages npm lists: ${allowScripts.map((entry) => entry.name).join(', ') || 'none'}`);
  assert.deepEqual(
    allowScripts.filter((entry) => entry.name === 'wsbench'),
    [],
  );
});

test('`npx wsbench list` in the project: every stack available, uWS native, Bun and Deno from the packages installed with it', async () => {
  const listed = await installed.npx(['list']);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^ {2}echo: /m);

  const json = await installed.wsbench(['list', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const list = JSON.parse(json.stdout) as Listing;
  // The browser clients need the system's Chromium, which no install brings.
  assert.deepEqual(
    list.stacks
      .filter((s) => !s.availability.available && !(NO_CHROMIUM && s.name.startsWith('browser')))
      .map((s) => `${s.role} ${s.name}`),
    [],
  );
  const uws = list.stacks.find((s) => s.name === 'uws')!;
  assert.ok(
    uws.availability.available && uws.availability.build?.native,
    'the native uWebSockets.js binary loads from the installed package',
  );
  for (const runtime of list.runtimes.filter((r) => r.name !== 'node')) {
    assert.ok(
      runtime.path?.startsWith(`${installed.projectDir}/node_modules/`),
      `${runtime.name} runs from the project's node_modules: ${runtime.path}`,
    );
    assert.match(runtime.source, /\(npm\)$/);
  }
});

test('a 1-second echo from the installed package: uws and bun servers x a deno client, every cell ok, its report written', async () => {
  const out = join(installed.projectDir, 'echo.json');
  const outcome = await installed.wsbench([
    'run',
    'echo',
    '--servers',
    'uws,bun',
    '--clients',
    'deno',
    '--duration',
    '1s',
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  assert.deepEqual(
    result.cells.map((c) => `${c.server}/${c.client} ${c.status === 'ok' ? 'ok' : c.reason}`),
    ['uws/deno ok', 'bun/deno ok'],
  );
  for (const cell of result.cells)
    assert.ok(isMeasured(cell) && (cell.metrics.received ?? 0) > 0, `${cell.server}/${cell.client} measured messages`);
  assert.ok(
    existsSync(join(installed.projectDir, 'echo.report', 'report.html')),
    'charts and report rendered by the installed vega',
  );
});

test('the browser client from the installed package: its pages load the kit and the scenario from node_modules', {
  skip: NO_CHROMIUM,
}, async () => {
  const out = join(installed.projectDir, 'browser.json');
  const outcome = await installed.wsbench([
    'run',
    'echo',
    '--servers',
    'uws',
    '--clients',
    'browser',
    '--duration',
    '1s',
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.ok(cell && isMeasured(cell) && (cell.metrics.received ?? 0) > 0, `uws/browser: ${cell?.status}`);
});

test('every docs/ or examples/ path that the help texts and the installed code name exists in the installed package', async () => {
  const top = await installed.wsbench(['--help']);
  assert.equal(top.code, 0, top.stderr);
  const commands = commandsIn(top.stdout);
  assert.ok(
    commands.includes('run') && commands.includes('list'),
    `the commands read from --help: ${commands.join(', ')}`,
  );
  const invocations = [
    ...commands.map((command) => [command, '--help']),
    ['run', 'echo', '--help'],
    ['capacity', 'echo', '--help'],
  ];
  const outcomes = await Promise.all(invocations.map((args) => installed.wsbench(args)));
  outcomes.forEach((help, i) => {
    assert.equal(help.code, 0, `wsbench ${invocations[i]!.join(' ')}: ${help.stderr}`);
  });
  const helps = [top.stdout, ...outcomes.map((help) => help.stdout)];
  const named = new Set(helps.flatMap(pathsIn));
  assert.ok(
    named.has('docs/protocols/'),
    `--target's help points to docs/protocols/ (found: ${[...named].join(', ')})`,
  );
  // Notes and errors are built at run time from strings in the code; comments there point readers the same way.
  for (const file of filesUnder(join(installed.packageDir, 'dist'), '.js'))
    pathsIn(readFileSync(file, 'utf8')).forEach((path) => {
      named.add(path);
    });
  assert.deepEqual(
    [...named].filter((path) => !existsSync(join(installed.packageDir, path))),
    [],
  );
});

test('every relative link of the installed README.md and docs/ resolves inside the installed package', () => {
  const problems: string[] = [];
  for (const page of documentationPages(installed.packageDir)) {
    for (const link of links(readFileSync(page, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue;
      const problem = linkProblem(installed.packageDir, page, link.target);
      if (problem) problems.push(`${relative(installed.packageDir, page)}:${link.line}: (${link.target}) ${problem}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('init in the installed package, then npm install && npm run bench -- --target in a copy of the project elsewhere: a table and a report', {
  timeout: 900_000,
}, async (t) => {
  const server = startPrintingServer(
    [process.execPath, join(installed.packageDir, 'examples', 'jsonrpc', 'server.mjs'), '--port', '0'],
    /listening on (\S+)/,
  );
  const tarballName = basename(installed.tarball);
  const aside = `${installed.tarball}.aside`;
  try {
    const init = await installed.npx(['init', 'mybench']);
    assert.equal(init.code, 0, init.stderr);
    const made = join(installed.projectDir, 'mybench');
    assert.match(
      init.stdout,
      new RegExp(
        `^wrote mybench/: package\\.json, scenario\\.ts, plan\\.yaml, tsconfig\\.json, \\.gitignore, vendor/${tarballName.replace(/\./g, '\\.')}$`,
        'm',
      ),
    );
    assert.match(init.stdout, /^ {2}npm run bench -- --target ws:\/\/127\.0\.0\.1:8080\/$/m);
    const manifest = JSON.parse(readFileSync(join(made, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    assert.deepEqual(
      manifest.dependencies,
      { wsbench: `file:vendor/${tarballName}` },
      'a copy of the tarball it was installed from, inside the project',
    );
    assert.ok(
      readFileSync(join(made, 'vendor', tarballName)).equals(readFileSync(installed.tarball)),
      'the copy is the tarball',
    );
    const own = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string;
      devDependencies: Record<string, string>;
    };
    assert.deepEqual(manifest.devDependencies, {
      typescript: own.devDependencies.typescript,
      '@types/node': own.devDependencies['@types/node'],
    });
    assert.equal(
      readFileSync(join(made, 'scenario.ts'), 'utf8'),
      readFileSync(join(REPO_ROOT, 'templates', 'init', 'scenario.ts'), 'utf8'),
    );

    // A colleague's clone of the project: somewhere else, and the tarball wsbench was installed from out of reach.
    const bench = join(installed.projectDir, 'colleague', 'mybench');
    mkdirSync(dirname(bench));
    renameSync(made, bench);
    renameSync(installed.tarball, aside);
    asRepository(bench);

    // With that tarball gone, init says so and falls back to the version.
    const orphan = await installed.wsbench(['init', 'orphan']);
    assert.equal(orphan.code, 0, orphan.stderr);
    const orphanManifest = JSON.parse(readFileSync(join(installed.projectDir, 'orphan', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    assert.deepEqual(orphanManifest.dependencies, { wsbench: own.version });
    assert.match(
      orphan.stdout,
      new RegExp(
        `^wsbench dependency: ${own.version.replace(/\./g, '\\.')} \\(its version, since the tarball this wsbench was installed from cannot be copied: \\S+ does not exist;`,
        'm',
      ),
    );

    // Offline here, npm needs a lockfile to resolve from its cache; a user online runs plain `npm install`.
    writeFileSync(
      join(bench, 'package-lock.json'),
      `${JSON.stringify(offlineLock(bench, join(bench, 'vendor', tarballName)), null, 2)}\n`,
    );
    let started = Date.now();
    await npm(['install'], bench);
    const installSeconds = (Date.now() - started) / 1000;

    const url = (await server.printed)[1]!;
    started = Date.now();
    // A 1 s window instead of the template's 5 s: what is checked is the table and the report, not the numbers.
    const run = await runCli(['run', 'bench', '--', '--target', url, '--duration', '1s'], {
      cwd: bench,
      command: ['npm'],
      env: npmEnv(),
      timeoutMs: 300_000,
    });
    const benchSeconds = (Date.now() - started) / 1000;
    t.diagnostic(
      `npm install ${installSeconds.toFixed(1)} s, npm run bench (tsc, a 1 s window, report) ${benchSeconds.toFixed(1)} s`,
    );
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(
      run.stdout,
      /^server\s+client\s+status\s+echo p50 ms\s+echo p99 ms\s+add p99 ms\s+sha256 p50 ms\s+sha256 p99 ms\s+req\/s\s+errors/m,
    );
    assert.match(run.stdout, /^127\.0\.0\.1:\d+\s+ws\s+ok(, [a-z ,]+)?\s+[\d.]+/m);
    assert.ok(existsSync(join(bench, 'wsbench-results.json')));
    assert.ok(existsSync(join(bench, 'wsbench-results.report', 'report.html')), run.stderr);
    // What the project's git would take: its own files and the tarball; installs, builds and results are ignored.
    assert.deepEqual(unignoredFiles(bench).sort(), [
      'package-lock.json',
      'package.json',
      'plan.yaml',
      'scenario.ts',
      'tsconfig.json',
      `vendor/${tarballName}`,
    ]);
  } finally {
    server.child.kill('SIGKILL');
    if (existsSync(aside)) renameSync(aside, installed.tarball);
  }
});
