/**
 * How many files this process may hold open, read from /proc. Scenarios check
 * their connection counts against it, the engine raises it and records it:
 * it sits below both so that reading it loads nothing else.
 */
import { readFileSync } from 'node:fs';

let limitsElsewhere = false;

/**
 * From now on this process plans runs that other machines will make (`wsbench k8s`): its own
 * limits say nothing about theirs, so the limit readers answer "unknown" (null) and the checks
 * that need them are left to the machines themselves.
 */
export function planForOtherMachines(): void {
  limitsElsewhere = true;
}

/** False once planForOtherMachines() was called: this machine's limits are not the run's. */
export function limitsAreThisMachines(): boolean {
  return !limitsElsewhere;
}

/** Soft RLIMIT_NOFILE from /proc (Linux); null elsewhere, or when the run is for other machines. */
export function openFileLimit(): number | null {
  if (limitsElsewhere) return null;
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (!match) return null;
    return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
  } catch {
    return null;
  }
}
