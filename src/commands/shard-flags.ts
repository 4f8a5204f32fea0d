/**
 * The command-line edge of sharded runs: --shard I/N (I may be env:NAME, e.g.
 * a Kubernetes Indexed Job's JOB_COMPLETION_INDEX), --run-id, and how the
 * windows line up: --start-at TIME, or --barrier URL served by shard 0 on
 * --barrier-listen. Turned into RunOptions.shard; the library checks the rest.
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { parseDurationMs } from '../parsing/units.js';
import { notAnAddress, parseListenAddress } from '../listening/listen-address.js';
import { DEFAULT_BARRIER_LISTEN, DEFAULT_BARRIER_TIMEOUT_MS, type ShardOptions } from '../shard/shard-options.js';

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

/** Flag names as commander stores them, for the list a scenario parameter may not reuse. */
export const SHARD_FLAG_NAMES = ['shard', 'runId', 'startAt', 'barrier', 'barrierListen', 'barrierTimeout'];

export function addShardOptions(command: Command): void {
  const listen = `${DEFAULT_BARRIER_LISTEN.host}:${DEFAULT_BARRIER_LISTEN.port}`;
  command
    .option('--shard <I/N>', 'run shard I (from 0) of N load machines against the same --target; I may be env:NAME (e.g. env:JOB_COMPLETION_INDEX/4)')
    .option('--run-id <id>', 'the id every shard of one run shares (with --shard)')
    .option('--start-at <time>', "open every shard's first window at this time: ISO time or epoch ms (NTP-synced hosts)")
    .option('--barrier <url>', "shard 0's barrier (http://HOST:PORT): every shard waits there once connected, so every cell's window opens at once")
    .option('--barrier-listen <host:port>', `where shard 0 serves the barrier (default ${listen})`)
    .option('--barrier-timeout <duration>', `how long the barrier waits for the last shard of a cell before it opens the window without it (default ${DEFAULT_BARRIER_TIMEOUT_MS / 1000}s)`);
}

/** The flags as the library's option; undefined without --shard. `env` is where env:NAME is read. */
export function shardOptionsFromFlags(flags: ShardFlags, hasTargets: boolean, env: NodeJS.ProcessEnv = process.env): ShardOptions | undefined {
  if (flags.shard === undefined) {
    const stray = (['runId', 'startAt', 'barrier', 'barrierListen', 'barrierTimeout'] as const).find((name) => flags[name] !== undefined);
    if (stray) throw new UsageError(`--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: only with --shard I/N`);
    return undefined;
  }
  const { index, count } = readShard(flags.shard, env);
  if (!hasTargets) throw new UsageError('--shard: needs --target URL: every shard loads the same server, which runs elsewhere');
  if (flags.runId === undefined) throw new UsageError('--shard: needs --run-id ID, the same on every shard of the run');
  if (flags.startAt !== undefined && flags.barrier !== undefined) throw new UsageError('--start-at and --barrier: give one of them');
  if (flags.startAt === undefined && flags.barrier === undefined) {
    throw new UsageError("--shard: needs --start-at TIME or --barrier URL, to open the shards' windows together");
  }
  if (flags.startAt !== undefined) {
    if (flags.barrierListen !== undefined || flags.barrierTimeout !== undefined) {
      throw new UsageError(`--${flags.barrierListen !== undefined ? 'barrier-listen' : 'barrier-timeout'}: only with --barrier`);
    }
    return { index, count, runId: flags.runId, start: { mode: 'start-at', atEpochMs: readTime(flags.startAt) } };
  }
  const timeoutMs = flags.barrierTimeout === undefined ? undefined : parseDurationMs(flags.barrierTimeout);
  if (timeoutMs === null) throw new UsageError(`--barrier-timeout: "${flags.barrierTimeout}" is not a duration such as 30s, 2m`);
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
    if (value === undefined || value.trim() === '') throw new UsageError(`--shard: environment variable ${name} is not set`);
    if (!/^\s*\d+\s*$/.test(value)) throw new UsageError(`--shard: environment variable ${name} is "${value}", not a shard index`);
    indexText = value.trim();
  }
  const index = Number(indexText);
  if (index >= count) throw new UsageError(`--shard: index ${index} is not below N = ${count} (shards count from 0 to ${count - 1})`);
  return { index, count };
}

/** ISO time (with its zone) or epoch milliseconds. */
function readTime(text: string): number {
  const trimmed = text.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) : /^\d{4}-\d{2}-\d{2}T/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (!Number.isFinite(ms)) throw new UsageError(`--start-at: "${text}" is not an ISO time (2030-01-01T12:00:00Z) or epoch milliseconds`);
  // A start days away is a typo (or seconds given as ms), not a plan: refuse it rather than wait.
  if (ms - Date.now() > MAX_START_AHEAD_MS) throw new UsageError(`--start-at: ${new Date(ms).toISOString()} is more than 24 hours away`);
  return ms;
}

/** "HOST:PORT", "[v6]:PORT" or ":PORT" (all addresses); HOST is an IP address or localhost, never looked up. */
function readListen(text: string): { host: string; port: number } {
  const read = parseListenAddress(text, DEFAULT_BARRIER_LISTEN.host, false);
  if (!('problem' in read)) return read;
  if (read.problem === 'name') throw new UsageError(`--barrier-listen: ${notAnAddress(read.host!)} (e.g. 0.0.0.0:7070)`);
  throw new UsageError(`--barrier-listen: "${text}" is not HOST:PORT (e.g. 0.0.0.0:7070)`);
}
