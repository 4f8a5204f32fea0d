/**
 * A --server-cmd that exits 77 before it listens says it cannot run here (a broker that is not
 * installed): its cell is n/a with the line it printed, like an unavailable stack's, not failed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../src/parent/index.js';
import { readResultFile } from '../src/parent/results/result-file.js';
import { runCli, tempDir } from './support.js';

test('the NATS wrapper without nats-server on PATH: the cell is n/a, saying how to install it', async () => {
  // A PATH with sh's tools but no nats-server: the wrapper runs, finds none, exits 77.
  const bin = mkdtempSync(join(tmpdir(), 'wsbench-path-'));
  for (const tool of ['sh', 'dirname']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
  const path = process.env.PATH;
  process.env.PATH = bin;
  try {
    const result = await run({
      scenario: 'pubsub',
      serverCommands: [{ name: 'nats', command: 'examples/brokers/nats-server.sh {port}' }],
      clients: ['ws'],
      params: { broker: 'nats', duration: '1s' },
    });
    const cell = result.cells[0]!;
    assert.equal(cell.status, 'skipped');
    assert.equal(cell.reason, 'nats: nats-server is not installed (Debian: apt-get install nats-server)');
  } finally {
    process.env.PATH = path;
    rmSync(bin, { recursive: true, force: true });
  }
});

test('the CLI shows it as n/a and exits 1, nothing having been measured', async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli([
    'run',
    'echo',
    '--server-cmd',
    `py=${process.execPath} -e "console.error('no venv here'); process.exit(77)" -- --port {port}`,
    '--clients',
    'ws',
    '--duration',
    '1s',
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 1);
  assert.match(outcome.stdout, /^n\/a {2}py x ws: py: no venv here$/m);
  const [cell] = readResultFile(out).cells;
  assert.deepEqual([cell?.status, cell && 'reason' in cell ? cell.reason : null], ['skipped', 'py: no venv here']);
});
