/**
 * The import graph of src/ and scenarios/, read from the sources as text: what
 * test/import-layers.test.ts and test/folder-rule.test.ts walk. Relative
 * imports and the package's own name (`wsbench`, `wsbench/scenario`) become
 * edges between files; other bare names are packages.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { REPO_ROOT } from './support.js';

export const ROOTS = ['src', 'scenarios'];
/** The package's own name, as the built-in scenarios and user code import it. */
const SELF_IMPORTS: Record<string, string> = {
  wsbench: 'src/parent/index.ts',
  'wsbench/scenario': 'src/shared/scenario-kit/index.ts',
};
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
/** A static import the compiler erases (`import type`, `export type`); `typeof import('x')` is the dynamic one. */
const TYPE_ONLY = /^\s*(?:import|export)\s+type\s/;

export interface FileImports {
  /** Files of src/ and scenarios/ this file imports (types included). */
  files: string[];
  /** Packages this file loads when it runs (type-only imports left out), by the name imported. */
  packages: string[];
}

function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(root, path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module a source text names in an import, an export ... from, or a dynamic import(), in order. */
export function importSpecifiers(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((match) => (match[1] ?? match[2])!);
}

/** file -> what it imports, for the tree at `root` (this repository's by default). */
export function importGraph(root = REPO_ROOT): Map<string, FileImports> {
  const files = ROOTS.flatMap((dir) => (existsSync(join(root, dir)) ? sourceFiles(root, dir) : []));
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      const imports: FileImports = { files: [], packages: [] };
      for (const match of text.matchAll(IMPORT)) {
        const specifier = (match[1] ?? match[2])!;
        const target =
          SELF_IMPORTS[specifier] ??
          (specifier.startsWith('.') ? normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts') : null);
        if (target !== null) {
          if (known.has(target) && target !== file && !imports.files.includes(target)) imports.files.push(target);
          continue;
        }
        const typeOnly =
          match[2] === undefined
            ? TYPE_ONLY.test(match[0])
            : /typeof\s*$/.test(text.slice(Math.max(0, match.index - 10), match.index));
        if (!typeOnly && !specifier.startsWith('node:') && !imports.packages.includes(specifier))
          imports.packages.push(specifier);
      }
      return [file, imports];
    }),
  );
}

/** The package a bare import names: `@scope/name/sub` -> `@scope/name`, `ajv/dist/2020.js` -> `ajv`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}
