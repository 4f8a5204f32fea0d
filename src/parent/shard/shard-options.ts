/**
 * What `run` takes to be one shard of a run spread over several load machines,
 * checked before anything starts, and the hash of the configuration every
 * shard of the run must share. Library errors name the option; the CLI names
 * its flags (src/parent/commands/shard-flags.ts).
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { notAnAddress } from '../../shared/listen-address.js';
import { redactUrl } from '../redact/url-secrets.js';
import { ParameterError } from '../../shared/types/errors.js';
import type { ParameterSpec, ParamValues } from '../../shared/types/declaration-types.js';
import type { ScenarioInfo } from '../../shared/types/result-types.js';
import type { ForeignServerSpec } from '../server-lifecycles/types.js';

/** Shard 0 serves the barrier here unless told otherwise. */
export const DEFAULT_BARRIER_LISTEN = { host: '0.0.0.0', port: 7070 } as const;
/** How long a barrier waits for the last shard of a cell before it releases the others without it. */
export const DEFAULT_BARRIER_TIMEOUT_MS = 120_000;
/** Most shards one run may have: more is a typo, not a cluster. */
const MAX_SHARDS = 10_000;
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** How the shards' measurement windows are lined up. */
export type ShardStart =
  /** Every shard opens its first cell's window at this wall-clock time (NTP-synced hosts); later cells open when ready. */
  | { mode: 'start-at'; atEpochMs: number }
  /**
   * Every shard checks in at shard 0's HTTP barrier once its clients are connected, for every cell round,
   * and all open their windows when it releases them. Shard 0 serves it on `listen` (default 0.0.0.0:7070).
   */
  | { mode: 'barrier'; url: string; listen?: { host: string; port: number }; timeoutMs?: number };

/** Which shard of how many load machines this run is, and how their windows start together (`shard` of RunOptions). */
export interface ShardOptions {
  /** 0-based. */
  index: number;
  count: number;
  /** The same for every shard of one run; the barrier and merge refuse others. */
  runId: string;
  start: ShardStart;
  /** Shard 0 tells where it serves the barrier (e.g. to print it): as text, and as the address bound. */
  onBarrierListening?: (address: string, bound: { host: string; port: number }) => void;
}

/** Refuses what cannot work, naming the option; a sharded run measures --target servers only. */
export function checkShardOptions(shard: ShardOptions, servers: string[], foreign: ForeignServerSpec[]): void {
  if (!Number.isInteger(shard.count) || shard.count < 1 || shard.count > MAX_SHARDS) {
    throw new ParameterError('shard', `count ${shard.count} is not a whole number from 1 to ${MAX_SHARDS}`);
  }
  if (!Number.isInteger(shard.index) || shard.index < 0 || shard.index >= shard.count) {
    throw new ParameterError(
      'shard',
      `index ${shard.index} is not one of 0 .. ${shard.count - 1} (shards count from 0)`,
    );
  }
  if (!RUN_ID.test(shard.runId)) {
    throw new ParameterError(
      'runId',
      `"${shard.runId}" is not a run id: 1 to 128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit`,
    );
  }
  const notTargets = servers.filter((name) => foreign.find((f) => f.name === name)?.kind !== 'target');
  if (servers.length === 0 || notTargets.length > 0) {
    const which = notTargets.length ? ` (not one: ${notTargets.join(', ')})` : '';
    throw new ParameterError(
      'shard',
      `every server of a sharded run must be a target that runs elsewhere, the same for every shard${which}`,
    );
  }
  const start = shard.start;
  if (start.mode === 'start-at') {
    if (!Number.isFinite(start.atEpochMs) || start.atEpochMs <= 0)
      throw new ParameterError('startAt', `${start.atEpochMs} is not a time`);
    return;
  }
  let url: URL;
  try {
    url = new URL(start.url);
  } catch {
    throw new ParameterError('barrier', `"${start.url}" is not a URL`);
  }
  if (url.protocol !== 'http:') throw new ParameterError('barrier', `"${start.url}" is not an http:// URL`);
  if (start.listen && (!Number.isInteger(start.listen.port) || start.listen.port < 0 || start.listen.port > 65_535)) {
    throw new ParameterError('barrierListen', `port ${start.listen.port} is not one of 0 .. 65535`);
  }
  if (start.listen && isIP(start.listen.host) === 0)
    throw new ParameterError('barrierListen', notAnAddress(start.listen.host));
  if (start.timeoutMs !== undefined && (!Number.isFinite(start.timeoutMs) || start.timeoutMs < 100)) {
    throw new ParameterError('barrierTimeout', `${start.timeoutMs}ms is shorter than 100ms`);
  }
}

/**
 * Refuses a sharded run in which a shard would get none of a count the client processes split among
 * themselves (a parameter declared `spread: 'processes'`, such as connections): that shard would
 * measure nothing, over a window that ends at once. Shares go to the lowest process numbers first,
 * so the shards from ceil(total / processes per shard) on would get none.
 */
export function checkShardShares(
  shard: Pick<ShardOptions, 'count'>,
  parameters: Readonly<Record<string, ParameterSpec>>,
  paramSets: readonly ParamValues[],
  clientProcesses: number,
): void {
  for (const [name, spec] of Object.entries(parameters)) {
    if (spec.kind !== 'integer' || spec.spread !== 'processes') continue;
    for (const params of paramSets) {
      const total = params[name];
      if (typeof total !== 'number') continue;
      const served = Math.ceil(total / clientProcesses);
      if (served >= shard.count) continue;
      const empty = shard.count - served === 1 ? `shard ${served}` : `shards ${served} to ${shard.count - 1}`;
      const processes = `${clientProcesses} client process${clientProcesses === 1 ? '' : 'es'}`;
      throw new ParameterError(
        name,
        `${total} spread over ${shard.count} shards of ${processes} leaves ${empty} with none: it would measure nothing (give at least ${(shard.count - 1) * clientProcesses + 1}, or fewer shards)`,
      );
    }
  }
}

/** What must be equal between shards of one run: not the shard's index, host, clock or start time. */
interface ShardedConfiguration {
  info: ScenarioInfo;
  paramSets: ParamValues[];
  servers: string[];
  foreign: ForeignServerSpec[];
  clients: string[];
  clientProcesses: number;
  repeat: number;
  count: number;
}

/** sha256 (hex) of the configuration in a fixed key order; a target's --target-pid is the host's own and is left out. */
export function configHash(config: ShardedConfiguration): string {
  // The URL as recorded (secrets redacted): a hash of the real one would let a weak password be guessed from the file.
  const targets = config.foreign.map((f) =>
    f.kind === 'target'
      ? { kind: f.kind, name: f.name, protocol: f.protocol, url: redactUrl(f.url) }
      : { kind: f.kind, name: f.name },
  );
  const canonical = canonicalJson({
    scenario: config.info,
    paramSets: config.paramSets,
    servers: config.servers,
    targets,
    clients: config.clients,
    clientProcesses: config.clientProcesses,
    repeat: config.repeat,
    shards: config.count,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

/** JSON with object keys sorted at every level, so equal configurations hash alike whatever order they were built in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
