/**
 * `--keep-server`: a --server-cmd server started once for a whole capacity
 * search instead of once per step. Each step then reaches it the way it
 * reaches a --target (the step's parameters in the URL's query, its process
 * tree sampled), and it is stopped when the server's search ends, on every way
 * out (the command server's own exit hook and watchdog still apply).
 */
import { CommandServer } from '../server-lifecycles/command.js';
import type { CommandSpec, TargetSpec } from '../server-lifecycles/types.js';
import type { ParamValues } from '../../shared/types/declaration-types.js';

export interface KeptServer {
  /** How the steps reach it: as a target at its URL, its process sampled. */
  target: TargetSpec;
  stop(): Promise<void>;
}

/** Starts `spec` once (with the first step's parameters in its URL); rejects with the one-line reason it did not start. */
export async function startKeptServer(
  spec: CommandSpec,
  cell: { host: string; scenario: string; params: ParamValues },
  signal: AbortSignal,
): Promise<KeptServer> {
  // Its steps reach it as a target, which trusts only --ca or --insecure, not the run's own certificate.
  if (spec.takesCertificate)
    throw new Error('a command that takes {cert} and {key} is started afresh for each step: leave out --keep-server');
  const server = new CommandServer(spec, cell);
  try {
    const started = await server.start(signal);
    // Every step's parameters replace the first step's in the query: a target's URL gets them set, key by key.
    const target: TargetSpec = {
      kind: 'target',
      name: spec.name,
      protocol: spec.protocol,
      url: started.url,
      tls: spec.tls,
      ...(started.pid !== null ? { pid: started.pid } : {}),
    };
    return { target, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
