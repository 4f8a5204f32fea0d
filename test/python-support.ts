/**
 * Where the tests find the Python of the reference servers: the .venv that
 * .ci/run makes at the repository root (beside the real package.json, so a
 * private build folder that links it finds the same one). Tests that need it
 * skip only where python3 is absent; with python3 but no .venv they fail and
 * say how to make it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './support.js';

const SOURCE_ROOT = dirname(realpathSync(join(REPO_ROOT, 'package.json')));
export const VENV_PYTHON = join(SOURCE_ROOT, '.venv', 'bin', 'python');
export const PYTHON_EXAMPLES = join(SOURCE_ROOT, 'examples', 'python');

function hasPython3(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** For `test(name, { skip: pythonSkip() }, ...)`: a reason to skip, or false. */
export function pythonSkip(): string | false {
  return hasPython3() || existsSync(VENV_PYTHON) ? false : 'python3 is not installed';
}

/** The venv's python; throws with the command that makes it when python3 exists but the venv does not. */
export function venvPython(): string {
  if (!existsSync(VENV_PYTHON)) {
    throw new Error(
      `no ${VENV_PYTHON}: run python3 -m venv .venv && .venv/bin/pip install -r examples/python/requirements.txt (as .ci/run does)`,
    );
  }
  return VENV_PYTHON;
}
