/**
 * How a project made by `wsbench init` depends on wsbench: on the very package
 * that ran init, wherever it came from. Installed from the registry, that is
 * its version; installed from a tarball (`npm install ./wsbench-0.1.0.tgz`,
 * `npx ./wsbench-0.1.0.tgz`), the tarball's path, since the version alone
 * would make npm look for it on the registry (where it is not, or is someone
 * else's); run from a folder (a clone), that folder. npm records where each
 * installed package came from in its lockfiles; that record decides.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Dependency {
  /** What package.json gets: "0.1.0", "file:/path/wsbench-0.1.0.tgz" or "file:/path/to/clone". */
  spec: string;
  /** Where it points, in words, for the line init prints. */
  origin: string;
}

/** This package's folder (the one holding its package.json), links resolved. */
export function packageRoot(): string {
  return realpathSync(fileURLToPath(new URL('../../../', import.meta.url)));
}

export function wsbenchDependency(root = packageRoot()): Dependency {
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  if (basename(dirname(root)) !== 'node_modules') return { spec: `file:${root}`, origin: 'the folder this wsbench runs from' };
  const project = dirname(dirname(root));
  const resolved = installRecord(project, name);
  if (resolved?.startsWith('file:')) {
    const target = resolved.slice('file:'.length);
    const path = isAbsolute(target) ? target : resolve(project, target);
    return { spec: `file:${path}`, origin: 'the tarball this wsbench was installed from; change it to a version once wsbench is on your registry' };
  }
  return { spec: version, origin: resolved ? 'the registry this wsbench was installed from' : 'its version (npm left no record of where this wsbench came from)' };
}

/** Where npm says it got `node_modules/<name>` of `project`: the hidden lockfile first, then package-lock.json. */
function installRecord(project: string, name: string): string | null {
  for (const lock of [join(project, 'node_modules', '.package-lock.json'), join(project, 'package-lock.json')]) {
    try {
      const data = JSON.parse(readFileSync(lock, 'utf8')) as { packages?: Record<string, { resolved?: unknown }> };
      const resolved = data.packages?.[`node_modules/${name}`]?.resolved;
      if (typeof resolved === 'string') return resolved;
    } catch {
      // No such lockfile, or not one npm wrote: try the next.
    }
  }
  return null;
}
