/**
 * What `run` makes of its journal flags (declared in flags/watch-flags.ts):
 * --no-journal, --keep-journal and --discard-journal, the refusal of an --out
 * whose journal waits for `wsbench recover`, and the journal's end once the
 * result is written.
 */
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../shared/types/errors.js';
import type { RunEvent } from '../engine/events.js';
import { builtInScenarios, loadScenario, type LoadedScenario } from '../../child/scenario-loader.js';
import type { SavedResult } from '../results/result-file.js';
import type { TestPlanInfo } from '../../shared/types/result-types.js';
import { checkJournalAtOut } from '../journal/guard.js';
import { journalPathOf } from '../journal/records.js';
import { RunJournal } from '../journal/writer.js';
import { redactUrlsIn } from '../redact/url-secrets.js';
import { terminalText } from '../escape/terminal.js';

export interface JournalFlags {
  out: string;
  /** false with --no-journal. */
  journal?: boolean;
  keepJournal?: boolean;
  discardJournal?: boolean;
}

/**
 * The run's journal at <out>.journal, not yet open (it opens when the run starts); null with --no-journal.
 * Throws the refusal when that journal holds a run waiting for `wsbench recover`.
 */
export async function openRunJournal(
  flags: JournalFlags,
  loaded: LoadedScenario,
  plan: TestPlanInfo | null,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<RunJournal | null> {
  if (flags.journal === false) {
    if (flags.keepJournal) throw new UsageError('--keep-journal: not with --no-journal');
    return null;
  }
  checkJournalAtOut(flags.out, '--out', flags.discardJournal === true);
  const out = resolve(flags.out);
  const scenario = { given: await scenarioGiven(loaded), url: loaded.url, name: loaded.scenario.name };
  const identity = {
    argv: process.argv.slice(2).map(redactUrlsIn),
    cwd: process.cwd(),
    out,
    scenario,
    ...(plan ? { plan } : {}),
  };
  return new RunJournal(journalPathOf(out), identity, (line) => stderr.write(`${terminalText(line)}\n`));
}

/** One listener for the journal and the rest (the journal hears each event after them). */
export function withJournal(journal: RunJournal | null, onEvent: (event: RunEvent) => void): (event: RunEvent) => void {
  if (!journal) return onEvent;
  return (event) => {
    onEvent(event);
    journal.onEvent(event);
  };
}

/** After the result is written: the journal goes (or stays, asked to or when no result could be written), and stderr says where it is. */
export async function endRunJournal(
  journal: RunJournal | null,
  saved: SavedResult,
  flags: JournalFlags,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<void> {
  if (!journal) return;
  const left = await journal.finish(saved.path, flags.keepJournal === true);
  if (left && saved.path === null)
    stderr.write(
      `${terminalText(`journal: ${journal.path} is kept: "wsbench recover ${journal.path}" rebuilds the result from it`)}\n`,
    );
  else if (left) stderr.write(`journal: ${terminalText(journal.path)}\n`);
}

/** How a rebuild loads the scenario again: a built-in by its name (wherever wsbench is installed then), else its file. */
async function scenarioGiven(loaded: LoadedScenario): Promise<string> {
  const name = basename(fileURLToPath(loaded.url)).replace(/\.js$/, '');
  if (builtInScenarios().includes(name) && (await loadScenario(name).catch(() => null))?.url === loaded.url)
    return name;
  return fileURLToPath(loaded.url);
}
