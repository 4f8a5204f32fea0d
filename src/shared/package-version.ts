/** Reads installed package versions, for `wsbench list` and the result's environment. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';

const require = createRequire(import.meta.url);

interface PackageIdentity {
  /** Name in the package's own package.json (an npm alias shows its real name here). */
  name: string;
  version: string;
}

export function installedPackage(importName: string): PackageIdentity | null {
  const root = packageRoot(importName);
  if (!root) return null;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: string; version?: string };
  return { name: pkg.name ?? importName, version: pkg.version ?? 'unknown' };
}

/**
 * The folder a package is installed in. Found from its entry point because an
 * `exports` map may hide `pkg/package.json` (socket.io does).
 */
function packageRoot(importName: string): string | null {
  let entry: string;
  try {
    entry = require.resolve(importName);
  } catch {
    return null;
  }
  const suffix = `${sep}node_modules${sep}${importName.split('/').join(sep)}`;
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    if (dir.endsWith(suffix)) return dir;
  }
  return null;
}

/** wsbench's own version, from its package.json. */
export function toolVersion(): string {
  const pkg = require('../../../package.json') as { version: string };
  return pkg.version;
}

/** A plain-JS probe for stacks with no native part: available when it imports. */
export async function probeByImport(importName: string, load: () => Promise<unknown>) {
  const version = installedPackage(importName)?.version ?? null;
  try {
    await load();
    return { available: true as const, version: version ?? 'unknown' };
  } catch (error) {
    return {
      available: false as const,
      version,
      reason: `cannot load ${importName}: ${(error as Error).message.split('\n')[0]}`,
    };
  }
}
