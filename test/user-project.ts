/**
 * A user's project as the type tests see it: a temp folder with wsbench
 * installed (a link to this checkout) and Node's types, one TypeScript file
 * compiled the way a user would compile it (module nodenext, strict).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, tempDir } from './support.js';

export interface UserProject {
  dir: string;
  /** tsc's output: '' when every file compiled cleanly. */
  errors: string;
}

/** Writes `source` as `file` into a new project and compiles it (emitting `.js` beside it unless `noEmit`). */
export function compileInUserProject(file: string, source: string, options: { noEmit?: boolean } = {}): UserProject {
  return compileFilesInUserProject({ [file]: source }, options);
}

/** Writes each of `sources` (file name -> source) into one new project and compiles them with one tsc, which costs seconds to start. */
export function compileFilesInUserProject(
  sources: Record<string, string>,
  options: { noEmit?: boolean } = {},
): UserProject {
  const dir = tempDir();
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'wsbench'));
  symlinkSync(join(REPO_ROOT, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  for (const [file, source] of Object.entries(sources)) writeFileSync(join(dir, file), source);
  const compilerOptions = {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    strict: true,
    types: ['node'],
    ...(options.noEmit ? { noEmit: true } : {}),
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: Object.keys(sources) }));
  try {
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], {
      encoding: 'utf8',
    });
    return { dir, errors: '' };
  } catch (error) {
    return { dir, errors: (error as { stdout?: string }).stdout || String(error) };
  }
}
