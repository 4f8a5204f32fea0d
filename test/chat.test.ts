import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, type CellResult, type MeasuredCell } from '../src/index.js';
import { runCli } from './support.js';

/** HDR buckets hold 3 significant digits: a reported value may sit up to 0.1% below the true one. */
const HDR_PRECISION = 0.999;

/** The metrics of an ok cell; fails the test for any other. */
function metricsOf(cell: CellResult): MeasuredCell['metrics'] {
  assert.equal(cell.status, 'ok', cell.status === 'ok' ? undefined : cell.reason);
  if (cell.status !== 'ok') throw new Error('unreachable');
  return cell.metrics;
}

/** A metric that must have a value. */
function value(metrics: MeasuredCell['metrics'], key: string): number {
  const found = metrics[key];
  assert.equal(typeof found, 'number', `${key} has a value`);
  return found as number;
}

function checkAccounting(cell: CellResult): void {
  const m = metricsOf(cell);
  const label = JSON.stringify(cell.params);
  const [sent, expected, received, duplicates] = ['sent', 'expected', 'received', 'duplicates'].map((k) => value(m, k));
  assert.ok(sent! > 0, `${label}: messages were sent`);
  assert.equal(expected, sent! * (Number(cell.params.members) - 1), `${label}: expected = sent x (members - 1)`);
  assert.ok(received! <= expected!, `${label}: received <= expected`);
  assert.equal(duplicates, 0, `${label}: TCP and one server never duplicate`);
  assert.equal(m.unaccounted, 0, `${label}: every receiver accounted for every sender's tail`);
  assert.equal(m.dropped, expected! - received! - duplicates!, `${label}: dropped = expected - received - duplicates`);
  assert.equal(m.dropped, m.droppedByServer, `${label}: receivers' gap count matches the server's drop counter`);
  assert.equal(m.latencySamples, m.received, `${label}: one latency sample per received message`);
  assert.equal(m.errors, 0);
}
