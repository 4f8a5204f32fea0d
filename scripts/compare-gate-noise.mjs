#!/usr/bin/env node
/**
 * How many identical runs pass `wsbench compare --fail-on-regression P` on this
 * machine: runs N pairs of the same `wsbench run`, back to back, compares each
 * pair once, and counts for each P the pairs the gate would let through (the
 * rule of src/parent/compare/compare-gate.ts: a change beyond the noise and beyond P
 * percent, or any regressed status or error count, or a cell missing from the
 * second run, fails).
 *
 *   node scripts/compare-gate-noise.mjs [--pairs 10] [--repeat 1] [--duration 2s] [--bin bin/wsbench.js]
 *
 * Loopback only; each run is the echo scenario, ws and uws servers, ws client.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const pairs = Number(option('pairs', '10'));
const repeat = option('repeat', '1');
const duration = option('duration', '2s');
const bin = resolve(option('bin', fileURLToPath(new URL('../bin/wsbench.js', import.meta.url))));
const thresholds = [0, 5, 10, 20, 30, 50, 100, 200];
const dir = mkdtempSync(join(tmpdir(), 'wsbench-gate-noise-'));

function wsbench(...rest) {
  const outcome = spawnSync(process.execPath, [bin, ...rest], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: outcome.status, stdout: outcome.stdout, stderr: outcome.stderr };
}

function runOnce(name) {
  const out = join(dir, `${name}.json`);
  const outcome = wsbench(
    'run',
    'echo',
    '--servers',
    'ws,uws',
    '--clients',
    'ws',
    '--duration',
    duration,
    '--repeat',
    repeat,
    '--out',
    out,
    '--json',
  );
  if (outcome.code !== 0)
    throw new Error(`run ${name} exited ${outcome.code}: ${outcome.stderr.trim().split('\n').at(-1)}`);
  return out;
}

/** The gate's rule (countedByGate), for any threshold, from one comparison's deltas. */
const beyond = (d, pct) =>
  d.verdict === 'regressed' &&
  (d.changePct === null || d.role === 'status' || d.role === 'errors' || Math.abs(d.changePct) > pct);
/** A cell the base ran and the new file lacks fails the gate at any threshold. */
const missing = (comparison) => (comparison.missingInNext ?? []).filter((c) => c.status !== 'skipped').length;

const passes = Object.fromEntries(thresholds.map((p) => [p, 0]));
for (let i = 1; i <= pairs; i++) {
  const base = runOnce(`pair${i}-a`);
  const next = runOnce(`pair${i}-b`);
  const outcome = wsbench('compare', base, next, '--json');
  const comparison = JSON.parse(outcome.stdout);
  const deltas = comparison.cells.flatMap((c) => c.deltas.map((d) => ({ ...d, cell: c.label })));
  for (const p of thresholds) if (missing(comparison) === 0 && !deltas.some((d) => beyond(d, p))) passes[p] += 1;
  const regressed = deltas.filter((d) => d.verdict === 'regressed');
  const worst = regressed.sort((a, b) => Math.abs(b.changePct ?? Infinity) - Math.abs(a.changePct ?? Infinity))[0];
  const warnings = comparison.warnings?.length ?? 0;
  console.log(
    `pair ${i}: ${regressed.length} regressed beyond the noise${worst ? `, worst ${worst.cell} ${worst.metric} ${worst.changePct === null ? 'n/a' : `${worst.changePct.toFixed(1)}%`}` : ''}${warnings ? `, ${warnings} warnings` : ''}`,
  );
}
console.log(
  `\n${pairs} identical pairs, --repeat ${repeat}, --duration ${duration}: pairs that pass --fail-on-regression P`,
);
for (const p of thresholds) console.log(`  P=${String(p).padStart(3)}%  ${passes[p]}/${pairs}`);
console.log(`(results in ${dir})`);
