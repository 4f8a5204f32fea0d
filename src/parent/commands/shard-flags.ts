/**
 * What `run` makes of the shard flags (declared in flags/cluster-flags.ts):
 * --shard I/N (I may be env:NAME, e.g. a Kubernetes Indexed Job's
 * JOB_COMPLETION_INDEX), --run-id, and how the windows line up: --start-at
 * TIME, or --barrier URL served by shard 0 on --barrier-listen. Turned into
 * RunOptions.shard; the library checks the rest.
 */
import { UsageError } from '../../shared/types/errors.js';
import { notAnAddress, parseListenAddress } from '../../shared/listen-address.js';
import { DEFAULT_BARRIER_LISTEN, type ShardOptions } from '../shard/shard-options.js';
import { SHARD_FLAGS } from './flags/cluster-flags.js';
import { readFlag } from './flags/index.js';
import { attributeOf } from './flags/flag-types.js';

/** Furthest ahead a start time may lie. */
const MAX_START_AHEAD_MS = 24 * 3_600_000;

export interface ShardFlags {
  shard?: string;
  runId?: string;
  startAt?: string;
  barrier?: string;
  barrierListen?: string;
  barrierTimeout?: string;
}

/** The flags as the library's option; undefined without --shard. `env` is where env:NAME is read. */
export function shardOptionsFromFlags(
  flags: ShardFlags,
  hasTargets: boolean,
  env: NodeJS.ProcessEnv = process.env,
): ShardOptions | undefined {
  if (flags.shard === undefined) {
    // Every shard flag but --shard itself means something only beside it.
    const stray = SHARD_FLAGS.find(
      (declaration) => (flags as Record<string, unknown>)[attributeOf(declaration.flag)] !== undefined,
    );
    if (stray) throw new UsageError(`${stray.flag}: only with --shard I/N`);
    return undefined;
  }
  const { index, count } = readShard(flags.shard, env);
  if (!hasTargets)
    throw new UsageError('--shard: needs --target URL: every shard loads the same server, which runs elsewhere');
  if (flags.runId === undefined) throw new UsageError('--shard: needs --run-id ID, the same on every shard of the run');
  if (flags.startAt !== undefined && flags.barrier !== undefined)
    throw new UsageError('--start-at and --barrier: give one of them');
  if (flags.startAt === undefined && flags.barrier === undefined) {
    throw new UsageError("--shard: needs --start-at TIME or --barrier URL, to open the shards' windows together");
  }
  if (flags.startAt !== undefined) {
    if (flags.barrierListen !== undefined || flags.barrierTimeout !== undefined) {
      throw new UsageError(
        `--${flags.barrierListen !== undefined ? 'barrier-listen' : 'barrier-timeout'}: only with --barrier`,
      );
    }
    return { index, count, runId: flags.runId, start: { mode: 'start-at', atEpochMs: readTime(flags.startAt) } };
  }
  const timeoutMs = readFlag<number>(flags, '--barrier-timeout');
  return {
    index,
    count,
    runId: flags.runId,
    start: {
      mode: 'barrier',
      url: flags.barrier!,
      ...(flags.barrierListen !== undefined ? { listen: readListen(flags.barrierListen) } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    },
  };
}

/** "2/4" or "env:JOB_COMPLETION_INDEX/4". */
function readShard(text: string, env: NodeJS.ProcessEnv): { index: number; count: number } {
  const match = /^\s*(\d+|env:[A-Za-z_][A-Za-z0-9_]*)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new UsageError(`--shard: "${text}" is not I/N (e.g. 0/4, or env:JOB_COMPLETION_INDEX/4)`);
  const count = Number(match[2]);
  if (count < 1) throw new UsageError(`--shard: N is ${count}: a run has at least 1 shard`);
  let indexText = match[1]!;
  if (indexText.startsWith('env:')) {
    const name = indexText.slice(4);
    const value = env[name];
    if (value === undefined || value.trim() === '')
      throw new UsageError(`--shard: environment variable ${name} is not set`);
    if (!/^\s*\d+\s*$/.test(value))
      throw new UsageError(`--shard: environment variable ${name} is "${value}", not a shard index`);
    indexText = value.trim();
  }
  const index = Number(indexText);
  if (index >= count)
    throw new UsageError(`--shard: index ${index} is not below N = ${count} (shards count from 0 to ${count - 1})`);
  return { index, count };
}

/** ISO time (with its zone) or epoch milliseconds. */
function readTime(text: string): number {
  const trimmed = text.trim();
  const ms = /^\d+$/.test(trimmed)
    ? Number(trimmed)
    : /^\d{4}-\d{2}-\d{2}T/.test(trimmed)
      ? Date.parse(trimmed)
      : Number.NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(`--start-at: "${text}" is not an ISO time (2030-01-01T12:00:00Z) or epoch milliseconds`);
  // A start days away is a typo (or seconds given as ms), not a plan: refuse it rather than wait.
  if (ms - Date.now() > MAX_START_AHEAD_MS)
    throw new UsageError(`--start-at: ${new Date(ms).toISOString()} is more than 24 hours away`);
  return ms;
}

/** "HOST:PORT", "[v6]:PORT" or ":PORT" (all addresses); HOST is an IP address or localhost, never looked up. */
function readListen(text: string): { host: string; port: number } {
  const read = parseListenAddress(text, DEFAULT_BARRIER_LISTEN.host, false);
  if (!('problem' in read)) return read;
  if (read.problem === 'name')
    throw new UsageError(`--barrier-listen: ${notAnAddress(read.host!)} (e.g. 0.0.0.0:7070)`);
  throw new UsageError(`--barrier-listen: "${text}" is not HOST:PORT (e.g. 0.0.0.0:7070)`);
}
