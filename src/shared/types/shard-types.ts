/**
 * What a shard result carries so that shards of one run can be told apart from
 * shards of another and merged exactly, and what a merged result says about the
 * shards it came from. Plain data; imports nothing.
 */

/** HdrHistogram settings: only histograms with equal settings add up exactly. */
export interface HistogramSettings {
  lowestDiscernibleValue: number;
  highestTrackableValue: number;
  significantDigits: number;
}

/** Present in the result of `wsbench run ... --shard i/N`. */
export interface ShardInfo {
  /** Shared by every shard of one run (given, or derived from the configuration and start time). */
  runId: string;
  /**
   * 0-based.
   * @integer
   * @minimum 0
   */
  index: number;
  /** @integer @minimum 1 */
  count: number;
  /** sha256 of everything that must match between shards: scenario, parameter sets, stacks, targets, processes, rounds. */
  configHash: string;
  histogram: HistogramSettings;
  /** How the measurement windows were lined up, and when (epoch ms, this shard's clock). */
  start: { mode: 'start-at' | 'barrier'; atEpochMs: number };
  /** This shard's clock minus shard 0's, estimated from round trips; 0 for shard 0, null when not measured. */
  clockOffsetMs: number | null;
  /** Round trip of the best offset probe: the offset is known within half of it. */
  clockRttMs: number | null;
  /**
   * This shard's CLOCK_MONOTONIC minus shard 0's, from the same probe: what a one-way delay stamped
   * on one host and read on another is off by (hosts' monotonic clocks differ by far more than their wall clocks).
   */
  monotonicOffsetMs?: number | null;
}

/** One shard as a merged result remembers it. */
export interface ShardSummary {
  index: number;
  status: 'ok' | 'failed' | 'missing';
  /** Why a shard failed or is missing. */
  reason?: string;
  /** Its own metrics per cell key, as it measured them alone. */
  cells: Array<{ key: string; status: string; metrics: Record<string, number | null> }>;
  /** Highest mean CPU of its client processes, % of one core. */
  clientCpuMaxPercent: number | null;
  clockOffsetMs: number | null;
}

/** Present in the result of `wsbench merge`. */
export interface MergeInfo {
  runId: string;
  /** @integer @minimum 1 */
  shardCount: number;
  shards: ShardSummary[];
  /** Imbalance between shards, saturated load generators, clock offsets beyond the one-way bound. */
  warnings: string[];
}
