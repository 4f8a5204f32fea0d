/**
 * The package as a stranger gets it: this checkout packed with `npm pack` and
 * the tarball installed into an empty temp project, outside the repository, so
 * nothing can resolve from the checkout's node_modules.
 *
 * The install is offline. npm cannot resolve the tarball's dependencies from
 * its cache alone (it would ask the registry for their version lists, which
 * `npm ci` never fetched), so the temp project gets a package-lock.json made
 * from this checkout's: the same versions and integrity hashes, whose tarballs
 * `npm ci` in the checkout left in npm's cache. It is also the tree the rest of
 * the suite ran against. dist/ must be built (npm test builds it first).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { REPO_ROOT, alive, runCli, type CliOutcome } from './support.js';

const execFileAsync = promisify(execFile);
/** A full install writes ~380 MB; a busy 2-core machine took 30 s. */
const NPM_DEADLINE_MS = 240_000;
const PROJECT_NAME = 'wsbench-packed-install';

export interface PackedInstall {
  /** The temp project the tarball was installed into. */
  projectDir: string;
  /** The tarball `npm pack` made, in the project folder. */
  tarball: string;
  /** The installed package: node_modules/wsbench of the project. */
  packageDir: string;
  /** Every file in the tarball, relative to the package root (`dist/src/parent/cli.js`). */
  packedFiles: string[];
  /** What `npm pack --json` said of the tarball. */
  packed: PackSummary;
  /** Seconds taken by `npm pack` and by `npm ci`. */
  packSeconds: number;
  installSeconds: number;
  /** Runs `npx wsbench ...args` in the project, offline. */
  npx(args: string[], options?: WsbenchOptions): Promise<CliOutcome>;
  /** Runs the project's node_modules/.bin/wsbench with this Node (what npx runs, without npm's start-up). */
  wsbench(args: string[], options?: WsbenchOptions): Promise<CliOutcome>;
  /** Deletes the project and the tarball. */
  remove(): void;
}

/** The fields of `npm pack --json` that the docs' sizes come from (scripts/package-size.mjs reads the same). */
export interface PackSummary {
  /** Bytes of the .tgz. */
  size: number;
  /** Bytes of its files, unpacked. */
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string; size: number }>;
}

export interface WsbenchOptions {
  /** Variables set (or, undefined, removed) in its environment. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

interface LockEntry {
  dev?: boolean;
  [field: string]: unknown;
}

interface PackageLock {
  packages: Record<string, LockEntry>;
}

/**
 * The environment npm runs in here: none of the variables of the `npm test`
 * that runs this (they would point npm at the checkout) but where the cache is,
 * and offline, so a missing tarball fails the install instead of reaching out.
 * Removed variables are undefined, which a child's environment leaves out.
 */
export function npmEnv(): NodeJS.ProcessEnv {
  const removed = Object.keys(process.env).filter(
    (key) => /^npm_/i.test(key) && !/^npm_config_(cache|userconfig)$/i.test(key),
  );
  return {
    ...process.env,
    ...Object.fromEntries(removed.map((key) => [key, undefined])),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

export async function npm(args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync('npm', args, {
      cwd,
      env: npmEnv(),
      timeout: NPM_DEADLINE_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failed = error as Error & { stderr?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}: ${failed.message}\n${failed.stderr ?? ''}`);
  }
}

/**
 * A package-lock.json for the project in `projectDir`, so npm installs it offline: wsbench from
 * `tarball` (its spec as the project's package.json gives it), wsbench's dependencies as this
 * checkout locked them, and the project's devDependencies (with theirs) from this checkout's lock too.
 */
export function offlineLock(projectDir: string, tarball: string): object {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as PackageLock;
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const project = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const resolved = `file:${relative(projectDir, tarball)}`;
  const packages: Record<string, unknown> = {
    '': {
      name: project.name,
      version: project.version,
      dependencies: project.dependencies,
      ...(project.devDependencies ? { devDependencies: project.devDependencies } : {}),
    },
    'node_modules/wsbench': {
      version: manifest.version,
      resolved,
      integrity,
      license: manifest.license,
      dependencies: manifest.dependencies,
      optionalDependencies: manifest.optionalDependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  // The checkout's dev-only packages are not wsbench's dependencies once installed.
  for (const [path, entry] of Object.entries(lock.packages))
    if (path.startsWith('node_modules/') && !entry.dev) packages[path] = entry;
  // The project's own dev tools, and what they depend on, as the checkout has them.
  const wanted = Object.keys(project.devDependencies ?? {});
  for (let name = wanted.shift(); name !== undefined; name = wanted.shift()) {
    const path = `node_modules/${name}`;
    const entry = lock.packages[path];
    if (!entry || (packages[path] && !(packages[path] as LockEntry).dev)) continue;
    packages[path] = { ...entry, dev: true };
    wanted.push(...Object.keys((entry.dependencies as Record<string, string> | undefined) ?? {}));
  }
  return { name: project.name, version: project.version, lockfileVersion: 3, requires: true, packages };
}

/** Who holds the checkout's pack lock: a file with its pid, in the temp folder, named after the checkout. */
const PACK_LOCK = join(
  tmpdir(),
  `wsbench-pack-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 16)}.lock`,
);

/**
 * Runs `work` while no other process of this checkout packs through here (the test files that pack run
 * side by side; scripts/package-size.mjs packs too). A pack rewrites the checkout's package.json for
 * its moment (prepack, scripts/pack-manifest.mjs), so two at once would ship each other's. A lock whose
 * process is gone is taken over.
 */
export async function packingAlone<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + NPM_DEADLINE_MS;
  for (;;) {
    try {
      writeFileSync(PACK_LOCK, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let owner: number;
    try {
      owner = Number(readFileSync(PACK_LOCK, 'utf8'));
    } catch {
      continue; // released in between: try again
    }
    // An empty file is one being written this instant: its owner is alive.
    if (owner > 0 && !alive(owner)) rmSync(PACK_LOCK, { force: true });
    else if (Date.now() > deadline)
      throw new Error(
        `another test process (pid ${owner}) has packed this checkout for ${NPM_DEADLINE_MS / 1000} s (${PACK_LOCK})`,
      );
    else await sleep(250);
  }
  try {
    return await work();
  } finally {
    rmSync(PACK_LOCK, { force: true });
  }
}

/** Packs this checkout and installs the tarball into a new temp project (without optional dependencies when asked). */
export async function packAndInstall(options: { omitOptional?: boolean } = {}): Promise<PackedInstall> {
  const projectDir = mkdtempSync(join(tmpdir(), 'wsbench-packed-'));
  try {
    let started = Date.now();
    // With its scripts, as a user packs: prepack drops the manifest's scripts (dist/ is current: npm test built it).
    const output = await packingAlone(() => npm(['pack', '--json', '--pack-destination', projectDir], REPO_ROOT));
    const [packed] = JSON.parse(output) as [PackSummary & { filename: string }];
    const packSeconds = (Date.now() - started) / 1000;
    const tarball = join(projectDir, packed.filename);
    writeFileSync(
      join(projectDir, 'package.json'),
      `${JSON.stringify({ name: PROJECT_NAME, version: '1.0.0', private: true, dependencies: { wsbench: `file:${packed.filename}` } }, null, 2)}\n`,
    );
    writeFileSync(
      join(projectDir, 'package-lock.json'),
      `${JSON.stringify(offlineLock(projectDir, tarball), null, 2)}\n`,
    );
    started = Date.now();
    await npm(['ci', ...(options.omitOptional ? ['--omit=optional'] : [])], projectDir);
    const installSeconds = (Date.now() - started) / 1000;

    const run =
      (command: string[]) =>
      (args: string[], runOptions: WsbenchOptions = {}) =>
        runCli(args, {
          cwd: projectDir,
          command,
          env: { ...npmEnv(), ...runOptions.env },
          ...(runOptions.timeoutMs ? { timeoutMs: runOptions.timeoutMs } : {}),
        });
    return {
      projectDir,
      tarball,
      packageDir: join(projectDir, 'node_modules', 'wsbench'),
      packedFiles: packed.files.map((file) => file.path).sort(),
      packed,
      packSeconds,
      installSeconds,
      npx: run(['npx', 'wsbench']),
      wsbench: run([process.execPath, join(projectDir, 'node_modules', '.bin', 'wsbench')]),
      remove: () => rmSync(projectDir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(projectDir, { recursive: true, force: true });
    throw error;
  }
}
