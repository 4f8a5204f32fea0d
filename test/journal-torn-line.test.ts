/**
 * A journal whose last line was torn by a write cut short is still recovered:
 * the torn line is ignored and said (on stderr and in the result's notes), and
 * everything before it is in the rebuilt result.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { crashedJournal } from './crashed-journal.js';
import { runCli } from './support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

test('recover ignores a torn last line, says so, and keeps every whole record before it', {
  timeout: 120_000,
}, async () => {
  const { out, journal, written } = await crashedJournal();
  const lineCount = readFileSync(journal, 'utf8').split('\n').length;
  appendFileSync(journal, '{"type":"tick","process":0,"ticks":[{"tick":9');

  const recovered = await runCli(['recover', journal]);
  assert.equal(recovered.code, 0, recovered.stderr);
  assert.match(
    recovered.stderr,
    new RegExp(`line ${lineCount} of the journal \\(\\d+ bytes\\) was torn by a write cut short and is ignored`),
  );
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  // The run's end reached the journal before the cut: its cells are whole, so it is not marked interrupted, only recovered.
  assert.equal(result.interrupted, false);
  assert.match(
    result.recovered!.reason,
    /^recovered from journal: the run ended at .* and wsbench stopped before its result was written$/,
  );
  assert.ok(
    result.recovered!.notes.some((note) => /was torn/.test(note)),
    result.recovered!.notes.join('\n'),
  );
  // The cell ended before the cut, so its counts are the ones the run itself wrote.
  assert.equal(result.cells[0]!.measurements!.counters.received, written.cells[0]!.measurements!.counters.received);
});
