/**
 * How a project made by `wsbench init` depends on wsbench: on the very package
 * that ran init, in a form that installs wherever the project is cloned (never
 * an absolute path into the home of whoever ran init).
 *
 * - Installed from the registry: its version.
 * - Installed from a tarball (`npm install ./wsbench-0.1.0.tgz`,
 *   `npx ./wsbench-0.1.0.tgz`): a copy of that tarball in the project,
 *   `vendor/wsbench-0.1.0.tgz`, depended on as `file:vendor/wsbench-0.1.0.tgz`.
 *   The version alone would send npm to the registry, where this wsbench is
 *   not (or another package of that name is); a path to the tarball where it
 *   lies would hold only on this machine.
 * - Run from a folder (a clone): that folder, as a path relative to the
 *   project (`file:../wsbench`), which holds for whoever keeps the two side by
 *   side as they are here.
 *
 * npm records where each installed package came from in its lockfiles; that
 * record decides.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readHead } from '../../shared/safe-files.js';

/** The project's folder the tarball is copied into. */
export const VENDOR_DIR = 'vendor';
/** The largest tarball init copies: wsbench's is about 1 MB; this bounds what a wrong record can make it read. */
const MAX_TARBALL_BYTES = 64 * 1024 * 1024;

interface Dependency {
  /** What package.json gets: "0.1.0", "file:vendor/wsbench-0.1.0.tgz" or "file:../wsbench". */
  spec: string;
  /** Where it points, in words, for the line init prints. */
  origin: string;
  /** The tarball to copy into the project: its path there (`vendor/wsbench-0.1.0.tgz`) and its bytes. */
  vendored?: { path: string; content: Buffer };
}

/** This package's folder (the one holding its package.json), links resolved. */
export function packageRoot(): string {
  return realpathSync(fileURLToPath(new URL('../../../../', import.meta.url)));
}

/** The dependency on the wsbench at `root` for a project in the folder `projectDir`. */
export function wsbenchDependency(projectDir: string, root = packageRoot()): Dependency {
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  if (basename(dirname(root)) !== 'node_modules')
    return folderDependency(projectDir, root, 'the folder this wsbench runs from');
  const installedIn = dirname(dirname(root));
  const resolved = installRecord(installedIn, name);
  if (!resolved?.startsWith('file:')) {
    return {
      spec: version,
      origin: resolved
        ? 'the registry this wsbench was installed from'
        : 'its version (npm left no record of where this wsbench came from)',
    };
  }
  const target = resolved.slice('file:'.length);
  const source = isAbsolute(target) ? target : resolve(installedIn, target);
  if (isFolder(source)) return folderDependency(projectDir, source, 'the folder this wsbench was installed from');
  const tarball = readTarball(source);
  if (typeof tarball === 'string') {
    return {
      spec: version,
      origin: `its version, since the tarball this wsbench was installed from cannot be copied: ${tarball}; unless wsbench ${version} is on your registry, copy a tarball into the project and depend on file:${VENDOR_DIR}/${basename(source)}`,
    };
  }
  const path = `${VENDOR_DIR}/${basename(source)}`;
  return {
    spec: `file:${path}`,
    origin: `a copy of the tarball this wsbench was installed from: commit it with the project, so that it installs wherever the project goes; or change it to a version once wsbench is on your registry`,
    vendored: { path, content: tarball },
  };
}

function folderDependency(projectDir: string, folder: string, what: string): Dependency {
  const path = relative(projectDir, folder).split(sep).join('/');
  return {
    spec: `file:${path}`,
    origin: `${what}, relative to the project: it installs where the two lie as they do here`,
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The tarball's bytes (a regular file, checked on the open descriptor), or why they cannot be had ("... does not exist"). */
function readTarball(path: string): Buffer | string {
  try {
    const content = readHead(path, MAX_TARBALL_BYTES + 1);
    return content.length > MAX_TARBALL_BYTES
      ? `${path} is larger than ${MAX_TARBALL_BYTES / 1024 / 1024} MiB`
      : content;
  } catch (error) {
    return (error as Error).message;
  }
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
