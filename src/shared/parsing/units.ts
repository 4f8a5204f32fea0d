/** Durations and sizes written with their unit, as code and the command line may give them. */

const DURATION_UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SIZE_UNITS_BYTES: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1_000_000,
  gb: 1_000_000_000,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** "500ms", "5s", "1m", "1.5h", "7d" in ms; null without a unit or when unreadable. */
export function parseDurationMs(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s|m|h|d)\s*$/i.exec(text);
  if (!match) return null;
  return Number(match[1]) * DURATION_UNITS_MS[match[2]!.toLowerCase()]!;
}

/** "32", "32b", "4kb", "64KiB", "1mb" in bytes (a bare number is bytes); null when not a whole byte count. */
export function parseSizeBytes(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|kib|mib|gib)?\s*$/i.exec(text);
  if (!match) return null;
  const bytes = Number(match[1]) * SIZE_UNITS_BYTES[(match[2] ?? 'b').toLowerCase()]!;
  return Number.isInteger(bytes) ? bytes : null;
}

/** A duration for people: 5000 -> "5s", 1500 -> "1500ms", 36e5 -> "1h". */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** A size for people: 32 -> "32B", 8192 -> "8KiB", 1000 -> "1kB". */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
    ['MB', 1e6],
    ['kB', 1000],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return `${bytes}B`;
}
