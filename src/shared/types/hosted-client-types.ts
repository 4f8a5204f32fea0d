/**
 * A client stack whose client half runs in another program than the client
 * process (a browser): the process hands it its own ctx, and everything the
 * other program records, counts and connects goes through that ctx, so the
 * engine's books (histograms, counters, the connection ledger, progress ticks
 * and the report) are kept in one place whatever runs the scenario.
 */
import type { ClientAdapter } from './adapter-types.js';
import type { ClientScenarioContext } from './scenario-types.js';
import type { SampledStat } from './result-types.js';

/** What the client process lends such a stack. */
export interface ClientHalfHost {
  ctx: ClientScenarioContext;
  /** The scenario module (file:// URL) and the scenario's name in it. */
  scenario: { url: string; name: string };
  /** The server's URL, as connect() gets it. */
  url: string;
  /** Kills process group `pgid` once this client process is gone, however it went (SIGKILL included). */
  watchProcessGroup(pgid: number): void;
}

export interface HostedClientAdapter extends ClientAdapter {
  /**
   * Runs the scenario's client half elsewhere, bridged to `host.ctx`; resolves when it is over there,
   * with what it measured of the loop that ran it (reported in place of the client process's own),
   * rejects with the reason it failed. connect() is then called by the ctx for each connection the
   * other program opens, and only counts it (see the stack).
   */
  runClientHalf(host: ClientHalfHost): Promise<HostedLoop>;
}

/** The busy share and timer lateness of the loop that ran the client half elsewhere (null: not measured). */
export interface HostedLoop {
  utilization: SampledStat | null;
  timerLatenessMs: SampledStat | null;
}

export function isHostedClient(adapter: ClientAdapter): adapter is HostedClientAdapter {
  return typeof (adapter as Partial<HostedClientAdapter>).runClientHalf === 'function';
}
