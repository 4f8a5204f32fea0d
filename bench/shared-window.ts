/**
 * One round of a side-by-side comparison: wsbench's client (a --target run against
 * the bench's own server) and a bare client process, measured over the same window.
 * The bare client's window opens when wsbench's does, so both meet the same drift.
 */
import type { ChildProcess } from 'node:child_process';
import { run, type ParamsFor } from '../src/parent/index.js';
import { exited, measureBareWindow, type ClientCost } from './bench-children.js';

/** Both clients over one window against one server. */
export interface SharedRound {
  wsbench: ClientCost;
  bare: ClientCost;
  /** The server's CPU over wsbench's window, percent of one core; null when it could not be read. */
  serverCpuPercent: number | null;
}

/** The server (its URL and process) and the bare client (connected, waiting for "go") are the caller's, and so is killing them. */
export async function sharedWindow<S extends 'echo' | 'firehose'>(
  scenario: S,
  params: ParamsFor<S>,
  url: string,
  server: ChildProcess,
  bareClient: ChildProcess,
): Promise<SharedRound> {
  // Filled in by the window-open event (a holder, so TypeScript does not narrow it to null).
  const bare: { cost?: Promise<ClientCost> } = {};
  const result = await run({
    scenario,
    targets: [{ name: 'bench-uws', url, pid: server.pid! }],
    clients: ['ws'],
    params,
    onEvent(event) {
      if (event.type !== 'window-open') return;
      bare.cost = measureBareWindow(bareClient);
      bare.cost.catch(() => undefined); // awaited below unless wsbench's cell failed first
    },
  });
  const [cell] = result.cells;
  if (cell?.status !== 'ok') throw new Error(`wsbench ${scenario} cell ${cell?.status}: ${cell?.reason}`);
  const client = cell.resources.clients[0];
  if (!client) throw new Error(`wsbench ${scenario} cell: the client process was not measured`);
  if (!bare.cost) throw new Error(`wsbench ${scenario} cell: its window never opened`);
  const { messages, windowMs: bareWindowMs, cpuMs } = await bare.cost;
  await exited(bareClient);
  const windowMs = cell.measurements.windowMs;
  return {
    wsbench: {
      messages: cell.measurements.counters.received ?? 0,
      windowMs,
      cpuMs: (client.cpuPercent.mean / 100) * windowMs,
    },
    bare: { messages, windowMs: bareWindowMs, cpuMs },
    serverCpuPercent: cell.resources.server?.cpuPercent.mean ?? null,
  };
}
