/**
 * `npm run bench`: what wsbench's own machinery costs (echo round trip against
 * bare TCP; client CPU per message at full load, echo and firehose, against bare
 * ws loops doing the same exchange; the open model's echo at a rate against a bare open-loop ws client; what one fan-out client process delivers at
 * 10,000 connections against a bare ws client process; the browser client's echo against a bare page
 * script on the same browser; echo written per connection against echo written as one client(ctx)). Each comparison runs wsbench and a bare
 * baseline on the same machine in the same run, so drift hits both: rounds
 * alternate, or (echo at full load) both clients share one server and one window.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { run } from '../src/parent/index.js';
import { firehoseBaseline, renderFirehoseBaseline } from './firehose-baseline.js';
import { echoCost, renderEchoCost } from './echo-cost.js';
import { fanoutBaseline, renderFanoutBaseline } from './fanout-baseline.js';
import { browserFloor, renderBrowserFloor } from './browser-floor.js';
import { perConnectionCost, renderPerConnectionCost } from './per-connection-cost.js';
import { openModelCost, renderOpenModelCost } from './open-model-cost.js';

const ROUNDS = 3;
const ROUND_MS = 3000;
const PAYLOAD_BYTES = 32;
const LIMIT_RATIO = 1.5;

async function wsbenchEchoP50Ms(): Promise<number> {
  const result = await run({
    scenario: 'echo',
    servers: ['uws'],
    clients: ['ws'],
    params: { duration: ROUND_MS, payload: PAYLOAD_BYTES },
  });
  const [cell] = result.cells;
  if (cell?.status !== 'ok') throw new Error(`wsbench echo cell ${cell?.status}: ${cell?.reason}`);
  const p50 = cell.metrics.rttP50Ms;
  if (p50 === null || p50 === undefined) throw new Error(`wsbench echo cell: ${cell.missing.rttP50Ms}`);
  return p50;
}

/** Server and client in two child processes, as wsbench does it. */
async function bareTcpP50Ms(): Promise<number> {
  const server = fork(fileURLToPath(new URL('./tcp-echo-server.js', import.meta.url)));
  const client = fork(fileURLToPath(new URL('./tcp-pingpong-client.js', import.meta.url)));
  try {
    const { port } = await once<{ port: number }>(server);
    client.send({ port, durationMs: ROUND_MS, payloadBytes: PAYLOAD_BYTES });
    return (await once<{ p50Ms: number }>(client)).p50Ms;
  } finally {
    server.kill();
    client.kill();
  }
}

function once<T>(child: ReturnType<typeof fork>): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`baseline child exited with code ${code}`)));
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const wsbench: number[] = [];
  const tcp: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    tcp.push(await bareTcpP50Ms());
    wsbench.push(await wsbenchEchoP50Ms());
    process.stderr.write(
      `round ${round}/${ROUNDS}: bare TCP p50 ${tcp.at(-1)} ms, wsbench echo p50 ${wsbench.at(-1)} ms\n`,
    );
  }
  const ratio = median(wsbench) / median(tcp);
  process.stdout.write(
    [
      `echo round trip, ${PAYLOAD_BYTES} B, 1 connection, 1 in flight, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s:`,
      `  bare Node TCP ping-pong (2 processes)   p50 ${median(tcp).toFixed(3)} ms`,
      `  wsbench echo, uws server x ws client    p50 ${median(wsbench).toFixed(3)} ms`,
      `  ratio ${ratio.toFixed(2)}x (limit ${LIMIT_RATIO}x) ${ratio <= LIMIT_RATIO ? 'ok' : 'OVER LIMIT'}`,
      '',
    ].join('\n'),
  );
  if (ratio > LIMIT_RATIO) process.exitCode = 1;

  // Full load: the ratios are printed, never asserted (they move with whatever else shares the machine).
  await comparison('echo at full load', async () => renderEchoCost(await echoCost(undefined, progress('echo cost'))));
  await comparison('open model', async () =>
    renderOpenModelCost(await openModelCost(undefined, progress('open model'))),
  );
  await comparison('firehose receive path', async () =>
    renderFirehoseBaseline(await firehoseBaseline(undefined, progress('firehose'))),
  );
  await comparison('fan-out', async () => renderFanoutBaseline(await fanoutBaseline(undefined, progress('fanout'))));
  await comparison('browser echo floor', async () => renderBrowserFloor(await browserFloor(progress('browser floor'))));
  await comparison('per-connection form', async () =>
    renderPerConnectionCost(await perConnectionCost(undefined, progress('per-connection'))),
  );
}

const progress =
  (label: string) =>
  (line: string): void =>
    void process.stderr.write(`${label} ${line}\n`);

/** One comparison's lines; one that fails says why in one line and the others still run. */
async function comparison(label: string, measure: () => Promise<string>): Promise<void> {
  try {
    process.stdout.write(`${await measure()}\n`);
  } catch (error) {
    process.stdout.write(`${label}: could not be measured: ${(error as Error).message.split('\n')[0]}\n`);
    process.exitCode = 1;
  }
}

await main();
