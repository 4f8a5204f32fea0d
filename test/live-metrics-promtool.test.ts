/**
 * /metrics passes `promtool check metrics` (Prometheus' own linter: snake_case
 * label names, no type in a metric's name, _total on counters, base units) for
 * scenarios with camelCase parameters and counters, and each counter family's
 * help names the table columns no series of it equals, with the scenario's
 * reason. Skips where promtool is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { run, isMeasured } from '../src/parent/index.js';
import { LiveState } from '../src/parent/live/state.js';
import { renderMetrics } from '../src/parent/live/openmetrics.js';
import { PROMTOOL, promtoolSkip } from './prometheus.js';

async function metricsOf(scenario: string, params: Record<string, unknown>): Promise<string> {
  const state = new LiveState();
  const result = await run({
    scenario,
    servers: ['ws'],
    clients: ['ws'],
    params,
    onEvent: (event) => state.onEvent(event),
  });
  assert.ok(result.cells.every(isMeasured), `${scenario}: ${result.cells.map((c) => c.status).join(', ')}`);
  return renderMetrics(state);
}

test('promtool check metrics finds nothing to say of echo, firehose and fanout', {
  skip: promtoolSkip,
  timeout: 120_000,
}, async () => {
  for (const [scenario, params] of [
    ['echo', { duration: 300 }],
    ['firehose', { duration: 300 }],
    ['fanout', { duration: 300, connections: 2, interval: 50 }],
  ] as const) {
    const text = await metricsOf(scenario, params);
    const lint = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
    assert.equal(`${lint.stdout}${lint.stderr}`, '', `${scenario}: promtool check metrics`);
    assert.equal(lint.status, 0);
    if (scenario === 'echo') assert.match(text, /server_processes="1"/, 'a camelCase parameter is a snake_case label');
    if (scenario === 'firehose') {
      const help = text.split('\n').find((line) => line.startsWith('# HELP wsbench_messages_total '))!;
      assert.match(
        help,
        /rx msgs \(messages received, the backlog after the window included\)/,
        'why rx msgs is not the received counter',
      );
    }
  }
});
