/**
 * `wsbench recover`'s work, for `report` and `compare` too: a result rebuilt
 * from a journal whose run stopped without writing one. The scenario module is
 * loaded again, by the name or path the run was given, so the metrics are
 * computed by the scenario's own code; a scenario that cannot be loaded is one
 * line, not a guess.
 */
import { resolve } from 'node:path';
import { UsageError } from '../../shared/types/errors.js';
import type { BenchResult } from '../../shared/types/result-types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import { builtInScenarios, loadScenario } from '../../child/scenario-loader.js';
import { resultFileWriter } from '../results/result-lock.js';
import { readResultFile } from '../results/result-file.js';
import { isJournal, readJournal, type TornLine } from './reader.js';
import { JournalRebuild } from './rebuild.js';
import type { JournalHeader } from './records.js';

interface Recovery {
  result: BenchResult;
  header: JournalHeader;
  /** The last line, when it was torn and ignored. */
  torn: TornLine | null;
}

export async function recoverJournal(path: string): Promise<Recovery> {
  const found: { header?: JournalHeader; rebuild?: JournalRebuild } = {};
  const { torn } = await readJournal(path, {
    async header(header) {
      const writer = resultFileWriter(header.out);
      if (writer !== null && writer === header.pid) {
        throw new UsageError(
          `${path} belongs to a run that is still going (pid ${writer}): its result is written when it ends`,
        );
      }
      found.header = header;
      found.rebuild = new JournalRebuild(path, await scenarioOf(header, path), header.argv, header.plan);
    },
    record: (record) => found.rebuild!.record(record),
  });
  return { result: found.rebuild!.result(torn), header: found.header!, torn };
}

/** A result file, or the result rebuilt from a journal (for `report` and `compare`); `onNote` hears what the rebuild noticed. */
export async function readResultOrJournal(path: string, onNote: (line: string) => void): Promise<BenchResult> {
  if (!isJournal(path)) return readResultFile(path);
  const { result } = await recoverJournal(path);
  onNote(`${path}: ${result.recovered!.reason}`);
  for (const note of result.recovered!.notes) onNote(`${path}: ${note}`);
  return result;
}

async function scenarioOf(header: JournalHeader, path: string): Promise<AnyScenario> {
  const { given, name } = header.scenario;
  const ref = builtInScenarios().includes(given) || given.startsWith('file:') ? given : resolve(header.cwd, given);
  let scenario: AnyScenario;
  try {
    scenario = (await loadScenario(ref)).scenario;
  } catch (error) {
    throw new UsageError(
      `${path}: cannot load scenario ${ref} again to compute its metrics: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  if (scenario.name !== name)
    throw new UsageError(`${path}: ${ref} now holds scenario "${scenario.name}", not "${name}" that the run measured`);
  return scenario;
}
