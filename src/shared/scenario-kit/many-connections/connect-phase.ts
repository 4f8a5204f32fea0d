/**
 * The connect phase of scenarios that open many connections at a paced rate
 * (fanout, idle): what a parameter set needs from the machine, checked before
 * anything starts, and how long its clients may take to be ready.
 */
import { openFileLimit } from '../../open-file-limit.js';
import type { ParameterProblem } from '../../types/scenario-types.js';
import { localPortCount, sourceAddressCount } from '../source-addresses.js';

/** The parameters of a paced connect phase, declared once for every scenario that has one. */
export const CONNECT_PHASE_PARAMETERS = {
  connectRate: {
    kind: 'integer',
    description: 'connections opened per second, over all client processes',
    default: 1000,
    min: 1,
    max: 100_000,
  },
  connectTimeout: {
    kind: 'duration',
    description: 'a connection not open after this counts as failed (ETIMEDOUT)',
    default: '10s',
    min: '100ms',
    max: '60s',
  },
  sourceAddresses: {
    kind: 'integer',
    description:
      'loopback source addresses 127.0.0.2.. to spread connections over (0 = one per 1000 connections above 1000)',
    default: 0,
    min: 0,
    max: 250,
  },
} as const;

/** Open files a process needs besides its sockets (stdio, IPC, libuv, the modules it loads). */
const FD_RESERVE = 100;
/** Longest connect phase a parameter set may need (the ready timeout allows it plus READY_MARGIN_MS). */
const CONNECT_BUDGET_MS = 100_000;
/** Beyond the paced connect phase: process start, the last connection's own timeout, scheduling. */
const READY_MARGIN_MS = 15_000;

export interface ConnectPhase {
  connections: number;
  /** Connections opened per second, over all client processes. */
  connectRate: number;
  connectTimeout: number;
  sourceAddresses: number;
  /** wsbench's common parameter: processes the server's connections are spread over (1 when absent). */
  serverProcesses?: number;
}

/** SO_REUSEPORT spreads connections by a hash, not evenly: room for one process to get this much more than its share. */
const SPREAD_MARGIN = 1.05;

/** The open-file limit, the connect budget and the local ports of each source address. */
export function connectPhaseProblem(p: ConnectPhase): ParameterProblem | null {
  const limit = openFileLimit();
  const processes = p.serverProcesses ?? 1;
  const perProcess = processes === 1 ? p.connections : Math.ceil((p.connections / processes) * SPREAD_MARGIN);
  if (limit !== null && perProcess + FD_RESERVE > limit) {
    const where = processes === 1 ? 'in the server process' : `in each of the ${processes} server processes`;
    const message =
      `${p.connections} needs about ${perProcess + FD_RESERVE} open files ${where} (one per connection), ` +
      `above the open-file limit of ${limit} (ulimit -n)${processes === 1 ? '; --server-processes N spreads them over N processes' : ''}`;
    return { parameter: 'connections', message };
  }
  const connectMs = (p.connections / p.connectRate) * 1000 + p.connectTimeout;
  if (connectMs > CONNECT_BUDGET_MS) {
    const message =
      `${p.connections} connections at ${p.connectRate}/s with a connectTimeout of ${p.connectTimeout}ms ` +
      `may take ${Math.ceil(connectMs / 1000)} s to connect, more than the ${CONNECT_BUDGET_MS / 1000} s allowed; raise connectRate`;
    return { parameter: 'connectRate', message };
  }
  const ports = localPortCount();
  const perAddress = Math.ceil(p.connections / Math.max(1, sourceAddressCount(p.connections, p.sourceAddresses)));
  if (ports !== null && perAddress > ports) {
    const message = `${p.connections} connections put ${perAddress} on one source address, more than its ${ports} local ports; raise sourceAddresses`;
    return { parameter: 'sourceAddresses', message };
  }
  return null;
}

/** Connections open at connectRate, and the last may take connectTimeout before it counts as failed. */
export function connectPhaseReadyMs(p: ConnectPhase): number {
  return (p.connections / p.connectRate) * 1000 + p.connectTimeout + READY_MARGIN_MS;
}
