/**
 * A journal as a run killed before its result leaves it, made by a real run:
 * a short echo run keeps its journal (--keep-journal), and its last record,
 * the one that says the result was written, is cut off. Everything before it
 * is what the run measured and wrote as it went.
 */
import assert from 'node:assert/strict';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './support.js';

export interface CrashedJournal {
  dir: string;
  /** Where the run was to write its result (removed: the crash came before it). */
  out: string;
  journal: string;
  /** The result the run did write, read before it was removed, to compare the rebuild with. */
  written: {
    cells: Array<{ measurements?: { counters: Record<string, number> } }>;
    argv?: string[];
    warnings?: string[];
    host?: string;
  };
}

/** A short echo run of ws x ws by default; `runArgs` (after `run`) and the exit code it ends with, for another. */
export async function crashedJournal(
  runArgs = ['echo', '--servers', 'ws', '--clients', 'ws', '--duration', '2s'],
  exitCode = 0,
): Promise<CrashedJournal> {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const journal = `${out}.journal`;
  const run = await runCli(['run', ...runArgs, '--keep-journal', '--out', out]);
  assert.equal(run.code, exitCode, run.stderr);
  const written = JSON.parse(readFileSync(out, 'utf8')) as CrashedJournal['written'];
  unlinkSync(out);
  const lines = readFileSync(journal, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  assert.match(lines.at(-1)!, /^\{"type":"end"/);
  writeFileSync(journal, `${lines.slice(0, -1).join('\n')}\n`);
  return { dir, out, journal, written };
}
