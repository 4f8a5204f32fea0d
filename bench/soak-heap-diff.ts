/**
 * What two heap snapshots of one process (taken minutes apart, e.g. with
 * bench/soak-memory.ts --heap-probe and `kill -USR2 PID`) differ by: objects
 * and bytes per kind and constructor, the largest growth first. A kind that
 * grows in step with the run's length is kept per tick; one that stays put is
 * working size.
 *
 *   node dist/bench/soak-heap-diff.js BEFORE.heapsnapshot AFTER.heapsnapshot [--top 25]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
if (positionals.length !== 2) throw new Error('usage: soak-heap-diff BEFORE.heapsnapshot AFTER.heapsnapshot [--top N]');
const [before, after] = positionals.map(tally) as [Map<string, Tally>, Map<string, Tally>];
const rows = [...new Set([...before.keys(), ...after.keys()])].map((key) => {
  const a = before.get(key) ?? { count: 0, bytes: 0 };
  const b = after.get(key) ?? { count: 0, bytes: 0 };
  return { key, count: b.count, countDelta: b.count - a.count, bytes: b.bytes, bytesDelta: b.bytes - a.bytes };
});
rows.sort((x, y) => y.bytesDelta - x.bytesDelta);
const total = (t: Map<string, Tally>): number => [...t.values()].reduce((sum, v) => sum + v.bytes, 0);
process.stdout.write(
  `self size: ${(total(before) / 1048576).toFixed(2)} MB -> ${(total(after) / 1048576).toFixed(2)} MB\n`,
);
for (const row of rows.slice(0, Number(values.top))) {
  process.stdout.write(
    `${(row.bytesDelta / 1024).toFixed(1).padStart(9)} KB ${String(row.countDelta).padStart(7)} objects  (now ${(row.bytes / 1024).toFixed(0)} KB, ${row.count})  ${row.key}\n`,
  );
}

interface Tally {
  count: number;
  bytes: number;
}

/** Objects and self bytes per "type:name" (a constructor's name; strings and code by their type only). */
function tally(path: string): Map<string, Tally> {
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byKey = new Map<string, Tally>();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]!]!;
    const named = type === 'object' || type === 'closure' || type === 'native' || type === 'hidden';
    const key = named ? `${type}:${snapshot.strings[snapshot.nodes[i + nameAt]!]!.slice(0, 60)}` : type;
    const entry = byKey.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snapshot.nodes[i + sizeAt]!;
    byKey.set(key, entry);
  }
  return byKey;
}
