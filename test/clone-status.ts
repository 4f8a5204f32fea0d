/**
 * What `git status` would list as new if a temp folder were the root of a
 * clone: the folder becomes a git repository holding the checkout's
 * .gitignore, so the files wsbench writes there are judged by the rules a
 * clone's root applies to them. Tests run wsbench in temp folders rather than
 * in the checkout, which must not be written into.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './support.js';

/** Makes `folder` a repository with the checkout's .gitignore at its root. */
export function asCloneRoot(folder: string): void {
  asRepository(folder);
  copyFileSync(join(REPO_ROOT, '.gitignore'), join(folder, '.gitignore'));
}

/** Makes `folder` a repository as it is (a project with a .gitignore of its own). */
export function asRepository(folder: string): void {
  execFileSync('git', ['init', '--quiet', folder], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * The files under `folder` (made by asCloneRoot or asRepository) that no rule of .gitignore covers, as paths relative
 * to it; `tracked` names the ones a clone holds anyway (a linked `examples`), which are left out.
 */
export function unignoredFiles(folder: string, tracked: string[] = []): string[] {
  const listed = execFileSync('git', ['-C', folder, 'ls-files', '--others', '--exclude-standard'], {
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((path) => path !== '' && path !== '.gitignore')
    .filter((path) => !tracked.some((name) => path === name || path.startsWith(`${name}/`)));
}
