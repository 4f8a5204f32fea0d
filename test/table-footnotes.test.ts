/**
 * The table explains itself: a `-` for the server's CPU and RSS gets a
 * footnote with the reason the result itself records, and every status that
 * appears in the table is explained under it, in words no row beside it
 * contradicts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MeasuredCell } from '../src/shared/types/result-types.js';
import { renderTable } from '../src/parent/report/run/table.js';
import { renderHtml } from '../src/parent/report/html/html.js';
import { cell, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { scenarioInfo as scenarioInfoOf } from '../src/parent/engine/scenario-info.js';
import churn from '../scenarios/churn.js';
import echo from '../scenarios/echo.js';
import { rateMetric } from './fixtures/metric-declarations.js';

const INFO = scenarioInfo('echo', {
  metrics: {
    messagesPerSec: rateMetric(),
  },
  table: ['messagesPerSec'],
  charts: [],
});

function targetCell(client: string): MeasuredCell {
  const c = cell('echo', { server: 'mine', client, metrics: { messagesPerSec: 900 } }) as MeasuredCell;
  c.resources.server = null;
  c.notes = [
    'GET /wsbench/stats answered HTTP 404',
    'server resources not measured: target mine was given no --target-pid',
  ];
  return c;
}

test('a "-" for server CPU and RSS is explained by the reason in the result', () => {
  const r = result(INFO, [
    targetCell('ws'),
    targetCell('undici'),
    cell('echo', { server: 'ws', client: 'ws', metrics: { messagesPerSec: 1000 } }),
  ]);
  const lines = renderTable(r).split('\n');
  assert.match(lines.find((l) => /^mine\s+ws\s/.test(l))!, /\s-\s+-$/);
  assert.ok(
    lines.includes(
      '-    srv CPU%, srv RSS MB of mine x ws, mine x undici: server resources not measured: target mine was given no --target-pid',
    ),
    lines.join('\n'),
  );
  assert.ok(
    renderHtml(r, []).includes(
      'srv CPU%, srv RSS MB of mine x ws, mine x undici: server resources not measured: target mine was given no --target-pid',
    ),
  );
});

test('without a recorded reason, the footnote says that no reason was recorded', () => {
  const c = targetCell('ws');
  c.notes = [];
  const lines = renderTable(result(INFO, [c])).split('\n');
  assert.ok(
    lines.includes(
      '-    srv CPU%, srv RSS MB of mine x ws: the result holds no sample of the server process and records no reason',
    ),
    lines.join('\n'),
  );
});

test('every status in the table is explained once under it, and only those', () => {
  const failed = cell('echo', { server: 'uws', client: 'ws', status: 'failed', metrics: { messagesPerSec: 10 } });
  const text = renderTable(
    result(INFO, [cell('echo', { server: 'ws', client: 'ws', metrics: { messagesPerSec: 1000 } }), failed]),
  );
  const lines = text.split('\n');
  const statusLines = lines.filter((l) => l.startsWith('status '));
  assert.deepEqual(
    statusLines.map((l) => l.split(':')[0]),
    ['status ok', 'status failed'],
  );
  assert.doesNotMatch(text, /status skipped/);
  const skipped = renderTable(
    result(INFO, [
      cell('echo', { server: 'ws', client: 'socketio', status: 'skipped' }),
      cell('echo', { server: 'ws', client: 'ws', metrics: { messagesPerSec: 1 } }),
    ]),
  );
  assert.match(skipped, /^status skipped: /m, 'a skipped pair is in the table as an n/a line');
});

test('the legend of ok never promises what an ok row beside it contradicts', () => {
  const clean = cell('echo', { server: 'ws', client: 'ws', metrics: { messagesPerSec: 1000 } });
  const legend = (text: string): string | undefined => text.split('\n').find((l) => l.startsWith('status ok: '));

  assert.equal(
    legend(renderTable(result(INFO, [clean]))),
    'status ok: every process reported to the end of the window; no connection was lost or refused; the numbers are complete',
  );

  const saturated = cell('echo', { server: 'uws', client: 'ws', metrics: { messagesPerSec: null } }) as MeasuredCell;
  saturated.saturation = 'server saturated: CPU 99% of a core through the window';
  saturated.missing = { messagesPerSec: 'the server did not report it' };
  assert.equal(
    legend(renderTable(result(INFO, [clean, saturated]))),
    'status ok: every client process reported to the end of the window (a saturated server did not: its own numbers are n/a); ' +
      'no connection was lost or refused; the numbers are complete but for the values shown n/a or - (why is listed above)',
  );

  assert.equal(
    legend(renderTable(result(INFO, [clean, targetCell('ws')]))),
    'status ok: every process reported to the end of the window; no connection was lost or refused; ' +
      'the numbers are complete but for the values shown n/a or - (why is listed above)',
  );

  const storm = { ...INFO, name: 'storm', connectionFaults: 'measured' as const };
  assert.equal(
    legend(renderTable(result(storm, [cell('storm', { server: 'ws', client: 'ws', metrics: { messagesPerSec: 1 } })]))),
    'status ok: every process reported to the end of the window; no fault was counted (connections that could not open or were lost ' +
      'are what storm measures: its columns count them, and none of its errors columns is above 0); the numbers are complete',
  );
});

test('a scenario that measures its own connection faults says so in the result it writes; one that does not, not', () => {
  assert.equal(scenarioInfoOf(churn).connectionFaults, 'measured');
  assert.equal('connectionFaults' in scenarioInfoOf(echo), false);
});
