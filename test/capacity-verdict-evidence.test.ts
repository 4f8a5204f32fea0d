/**
 * A capacity verdict prints the evidence it was judged on. A server that got
 * 47 % of a core but wanted 97 % (the rest waiting for a core on a crowded
 * machine) is saturated by its CPU demand: the step carries the demand, and the
 * verdict and the steps table print it beside the CPU it got (the step once said
 * "server CPU saturated" beside srv CPU% 47). A file written before the field
 * gets the demand from the step's cell when read. The same holds for the load
 * generator: a step judged invalid on a client's demand prints that demand, not
 * "load generator saturated" beside cli CPU% 22.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientSaturationEvidence, describeBreak, judgeCell } from '../src/parent/capacity/judge.js';
import { parseSlo } from '../src/parent/slo/grammar.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import { capacitySteps } from '../src/parent/report/capacity/capacity-table.js';
import { resultFromJson } from '../src/parent/results/result-file.js';
import type { CapacityResult, MeasuredCell } from '../src/shared/types/result-types.js';
import echoScenario from '../scenarios/echo.js';
import { capacityResult } from './fixtures/synthetic-capacity.js';
import { cell, resources } from './fixtures/synthetic-results.js';

const echo = scenarioInfo(echoScenario);

/** A server on CPU 47 % of a core that wanted 97 %, its event loop busy 99 % of the window. */
function crowdedServer(count: number): MeasuredCell {
  const server = {
    ...resources(47, 60, 60),
    cpuDemandPercent: { mean: 97, max: 100 },
    eventLoopUtilization: { mean: 0.99, max: 1 },
  };
  return cell('echo', {
    server: 'ws',
    client: 'ws',
    params: { connections: count },
    metrics: { rttP99Ms: 3, errors: 0 },
    serverResources: server,
  }) as MeasuredCell;
}

test('the step carries the demand, and the verdict and the table print it beside the CPU the server got', () => {
  const step = {
    ...judgeCell(crowdedServer(20), parseSlo('p99<2ms', echo), echo, 'rttP99Ms', 20, 1),
    phase: 'ramp' as const,
    outcome: 'broken' as const,
  };
  assert.equal(step.serverSaturated, true);
  assert.equal(step.serverCpuDemandPercent, 97);
  assert.equal(
    describeBreak(step),
    'latency (p99 3 ms not < 2 ms); server CPU saturated (CPU demand 97 % of a core, on CPU 47 %, event loop busy 99 %)',
  );

  const r = capacityResult([{ server: 'ws', capacity: 10, brokeAt: 20 }]);
  r.capacity.servers[0]!.steps.splice(-1, 1, step);
  const table = capacitySteps(r, r.capacity.servers[0]!);
  const row = Object.fromEntries(table.header.map((h, i) => [h, table.rows.at(-1)![i]]));
  assert.equal(row['srv CPU%'], '47');
  assert.equal(row['srv demand%'], '97');
  assert.match(row.outcome!, /server CPU saturated \(CPU demand 97 % of a core, on CPU 47 %/);
});

test("a capacity file older than the field reads the demand off each step's cell", () => {
  const r = capacityResult([{ server: 'ws', capacity: 10, brokeAt: 20 }]);
  const steps = r.capacity.servers[0]!.steps;
  for (const s of steps) delete (s as { serverCpuDemandPercent?: number | null }).serverCpuDemandPercent;
  r.cells = steps.map((s) => crowdedServer(s.count));
  const read = resultFromJson(JSON.parse(JSON.stringify(r)), 'old.json') as CapacityResult;
  assert.deepEqual(
    read.capacity.servers[0]!.steps.map((s) => s.serverCpuDemandPercent),
    steps.map(() => 97),
  );
});

/** A client process on CPU 22 % of a core that wanted 97 %, its event loop busy 99 % of the window. */
function crowdedClient(count: number): MeasuredCell {
  const made = cell('echo', {
    server: 'ws',
    client: 'ws',
    params: { connections: count },
    metrics: { rttP99Ms: 1, errors: 0 },
  }) as MeasuredCell;
  made.resources.clients = [
    {
      ...resources(22, 30, 80),
      cpuDemandPercent: { mean: 97, max: 100 },
      eventLoopUtilization: { mean: 0.99, max: 1 },
    },
  ];
  return made;
}

test('a load generator judged saturated on its demand: the step and the table print the demand, not the CPU alone', () => {
  const step = {
    ...judgeCell(crowdedClient(20), parseSlo('p99<2ms', echo), echo, 'rttP99Ms', 20, 1),
    phase: 'ramp' as const,
    outcome: 'invalid' as const,
  };
  assert.equal(step.clientSaturated, true);
  assert.deepEqual(step.clientCpuDemandPercent, [97]);
  assert.equal(clientSaturationEvidence(step), 'CPU demand 97 % of a core, on CPU 22 %');

  const r = capacityResult([{ server: 'ws', capacity: 10, brokeAt: 20 }]);
  r.capacity.servers[0]!.steps.splice(-1, 1, step);
  const table = capacitySteps(r, r.capacity.servers[0]!);
  const row = Object.fromEntries(table.header.map((h, i) => [h, table.rows.at(-1)![i]]));
  assert.equal(row['cli CPU%'], '22');
  assert.equal(row.outcome, 'invalid: load generator saturated (CPU demand 97 % of a core, on CPU 22 %)');
});

test('without a demand (an older file, or no schedstat), the CPU it was judged on is what is shown, process by process', () => {
  assert.equal(clientSaturationEvidence({ clientCpuPercent: [91, 88] }), 'CPU 91 %, 88 % of a core');
  assert.equal(
    clientSaturationEvidence({ clientCpuPercent: [91, 88], clientCpuDemandPercent: [97, null] }),
    'client 1: CPU demand 97 % of a core, on CPU 91 %; client 2: CPU 88 % of a core',
  );
});
