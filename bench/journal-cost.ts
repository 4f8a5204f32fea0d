/**
 * What the journal costs a run at full load: echo, ws x ws, 50 connections,
 * one message in flight on each, in rounds with and without the journal
 * (--no-journal), alternated ABBA so that the machine's drift meets both
 * alike. Per round: the cell's msg/s, wsbench's own CPU seconds (the process
 * that writes the journal; read from /proc until it exits) and the journal's
 * size just before the run's end removes it.
 *
 *   node dist/bench/journal-cost.js [--pairs 3] [--duration 10s]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchResult } from '../src/shared/types/result-types.js';

const BIN = fileURLToPath(new URL('../../bin/wsbench.js', import.meta.url));
const TICKS_PER_S = 100;

interface Round {
  journal: boolean;
  messagesPerSec: number;
  wsbenchCpuS: number;
  journalBytes: number;
}

const { values } = parseArgs({
  options: { pairs: { type: 'string', default: '3' }, duration: { type: 'string', default: '10s' } },
});
const dir = mkdtempSync(join(tmpdir(), 'wsbench-journal-cost-'));
const rounds: Round[] = [];
for (let pair = 0; pair < Number(values.pairs); pair++) {
  for (const journal of pair % 2 === 0 ? [true, false] : [false, true]) {
    const round = await measure(journal, join(dir, `r${rounds.length}.json`));
    rounds.push(round);
    process.stderr.write(`${JSON.stringify(round)}\n`);
  }
}
const side = (journal: boolean) => rounds.filter((r) => r.journal === journal);
const summary = {
  on: {
    messagesPerSec: median(side(true).map((r) => r.messagesPerSec)),
    wsbenchCpuS: median(side(true).map((r) => r.wsbenchCpuS)),
    journalBytes: median(side(true).map((r) => r.journalBytes)),
  },
  off: {
    messagesPerSec: median(side(false).map((r) => r.messagesPerSec)),
    wsbenchCpuS: median(side(false).map((r) => r.wsbenchCpuS)),
  },
};
process.stdout.write(
  `${JSON.stringify({ duration: values.duration, pairs: Number(values.pairs), ...summary, throughputRatio: summary.on.messagesPerSec / summary.off.messagesPerSec, cpuRatio: summary.on.wsbenchCpuS / summary.off.wsbenchCpuS, rounds }, null, 1)}\n`,
);

async function measure(journal: boolean, out: string): Promise<Round> {
  const args = [
    'run',
    'echo',
    '--servers',
    'ws',
    '--clients',
    'ws',
    '--connections',
    '50',
    '--duration',
    values.duration!,
    '--out',
    out,
    '--keep-journal',
  ];
  const child = spawn(process.execPath, [BIN, ...(journal ? args : [...args.slice(0, -1), '--no-journal'])], {
    stdio: 'ignore',
  });
  let cpuS = 0;
  const timer = setInterval(() => {
    try {
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpuS = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
    } catch {
      // Exited: the last reading stands.
    }
  }, 100);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearInterval(timer);
  if (code !== 0) throw new Error(`wsbench exited with ${code}`);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const cell = result.cells[0]!;
  if (!('metrics' in cell)) throw new Error(`cell ${cell.status}`);
  return {
    journal,
    messagesPerSec: Number(cell.metrics.messagesPerSec),
    wsbenchCpuS: cpuS,
    journalBytes: journal ? statSync(`${out}.journal`).size : 0,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
