/**
 * Replays a run's journal (bench/soak-memory.ts keeps one) into the parts of
 * wsbench that keep something per tick, one part per process, as fast as they
 * take it, and reads what each keeps: process.memoryUsage() after a forced full
 * collection every few hundred ticks. An hour of ticks replays in seconds, so
 * each suspect of wsbench's growth over a long run is measured alone.
 *
 *   node --expose-gc dist/bench/soak-replay.js --journal FILE --part PART [--laps 2]
 *
 * PART: `time-series` (the result's series), `live` (the live state and its
 * series), `dashboard` (the live state and a dashboard snapshot, serialised,
 * each simulated second), `journal` (the journal writer, into /dev/null).
 * --laps N replays the journal's ticks N times end to end (later laps shifted
 * in time), for a window N times as long. Prints JSON lines.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { RunEvent } from '../src/parent/engine/events.js';
import type { ProgressTick } from '../src/shared/measure/time-series.js';
import { TimeSeriesCollector } from '../src/shared/measure/time-series.js';
import type { JournalRecord } from '../src/parent/journal/records.js';
import { RunJournal } from '../src/parent/journal/writer.js';
import { LiveState } from '../src/parent/live/state.js';
import { dashboardSnapshot, OwnProcess } from '../src/parent/live/dashboard-snapshot.js';

const SAMPLE_EVERY_TICKS = 300;
const { values } = parseArgs({
  options: { journal: { type: 'string' }, part: { type: 'string' }, laps: { type: 'string', default: '1' } },
});
const collect = (globalThis as { gc?: () => void }).gc;
if (!values.journal || !values.part || !collect)
  throw new Error(
    'usage: node --expose-gc soak-replay.js --journal FILE --part time-series|live|dashboard|journal [--laps N]',
  );
const part = values.part;
const laps = Number(values.laps);

const records = readFileSync(values.journal, 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('{'))
  .map((line) => JSON.parse(line) as JournalRecord | { type: 'journal' });
const start = records.find((r): r is Extract<JournalRecord, { type: 'run-start' }> => r.type === 'run-start')!;
const cellStart = records.find((r): r is Extract<JournalRecord, { type: 'cell-start' }> => r.type === 'cell-start')!;
const perCell = records.filter(
  (r): r is Extract<JournalRecord, { type: 'tick' | 'resources' }> => r.type === 'tick' || r.type === 'resources',
);
const lapTicks = Math.max(...perCell.flatMap((r) => (r.type === 'tick' ? r.ticks.map((t) => t.tick) : [])));
const lapMs = perCell.at(-1)!.atMs - perCell[0]!.atMs + 1000;

let clockMs = cellStart.atMs;
const state = new LiveState(() => clockMs);
const own = new OwnProcess();
const series = new TimeSeriesCollector(1000);
const journal = new RunJournal(
  '/dev/null',
  {
    argv: [],
    cwd: '/',
    out: '/dev/null',
    scenario: { given: start.scenario.name, url: '', name: start.scenario.name },
  },
  (line) => process.stderr.write(`${line}\n`),
);
const listeners: Array<(event: RunEvent) => void> =
  part === 'live' || part === 'dashboard' ? [(e) => state.onEvent(e)] : part === 'journal' ? [journal.onEvent] : [];

emit({
  type: 'run-start',
  scenario: start.scenario,
  cells: start.plan.length,
  repeat: 1,
  plan: start.plan,
  startedAt: start.startedAt,
  environment: start.environment,
  clientProcesses: start.clientProcesses,
});
emit({
  type: 'cell-start',
  index: 0,
  total: 1,
  round: 0,
  scenario: start.scenario.name,
  server: cellStart.server,
  client: cellStart.client,
  params: cellStart.params,
  windowMs: undefined,
});
emit({ type: 'window-open', index: 0 });

let ticks = 0;
let lastSnapshotMs = 0;
let snapshotBytes = 0;
const startedMs = Date.now();
sample();
for (let lap = 0; lap < laps; lap++) {
  for (const record of perCell) {
    clockMs = record.atMs + lap * lapMs;
    if (record.type === 'resources') {
      const { atMs: _atMs, ...event } = record;
      emit(event);
      continue;
    }
    const shifted: ProgressTick[] = record.ticks.map((t) => ({
      ...t,
      tick: t.tick + lap * lapTicks,
      tMs: (t.tMs ?? 0) + lap * lapMs,
    }));
    if (part === 'time-series') for (const tick of shifted) series.add(record.process, tick);
    emit({
      type: 'tick',
      index: 0,
      counters: shifted.at(-1)!.counters,
      progress: { process: record.process, ticks: shifted },
    });
    if (part === 'dashboard' && clockMs - lastSnapshotMs >= 1000) {
      lastSnapshotMs = clockMs;
      snapshotBytes = JSON.stringify(dashboardSnapshot(state, own, clockMs)).length;
    }
    if (++ticks % SAMPLE_EVERY_TICKS === 0) sample();
  }
}
if (part === 'time-series') process.stdout.write(`${JSON.stringify({ points: series.build()?.points.length })}\n`);
sample();
await journal.close();

function emit(event: RunEvent): void {
  for (const listener of listeners) listener(event);
}

function sample(): void {
  collect!();
  const usage = process.memoryUsage();
  const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;
  process.stdout.write(
    `${JSON.stringify({ part, ticks, wallS: Math.round((Date.now() - startedMs) / 100) / 10, rssMB: mb(usage.rss), heapUsedMB: mb(usage.heapUsed), heapTotalMB: mb(usage.heapTotal), externalMB: mb(usage.external), arrayBuffersMB: mb(usage.arrayBuffers), ...(snapshotBytes ? { snapshotKB: Math.round(snapshotBytes / 1024) } : {}) })}\n`,
  );
}
