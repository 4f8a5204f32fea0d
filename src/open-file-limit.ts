/**
 * How many files this process may hold open, read from /proc. Scenarios check
 * their connection counts against it, the engine raises it and records it:
 * it sits below both so that reading it loads nothing else.
 */
import { readFileSync } from 'node:fs';

/** Soft RLIMIT_NOFILE from /proc (Linux); null elsewhere. */
export function openFileLimit(): number | null {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (!match) return null;
    return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
  } catch {
    return null;
  }
}
