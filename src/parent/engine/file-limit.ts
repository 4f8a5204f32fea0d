/**
 * Many connections need many open files: one per connection in the server and
 * in the clients. wsbench raises its own open-file limit before it starts any
 * child (children inherit it): up to the hard limit for anyone, and past it
 * where the system allows (root may raise the hard limit up to fs.nr_open).
 * Where it cannot, the scenarios' own checks refuse a too-large step with the
 * limit named. Node has no setrlimit, so this asks util-linux's prlimit.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { openFileLimit } from '../../shared/open-file-limit.js';

/** Enough for 50,000 connections per process with room to spare. */
const WANTED_OPEN_FILES = 262_144;

let raised = false;

/** Raises this process's open-file limit once; returns the limit in force afterwards. */
export function raiseOpenFileLimit(): number | null {
  if (raised) return openFileLimit();
  raised = true;
  const current = openFileLimit();
  if (current === null || current >= WANTED_OPEN_FILES) return current;
  const ceiling = Math.min(WANTED_OPEN_FILES, systemMaximum() ?? WANTED_OPEN_FILES);
  for (const target of [ceiling, hardLimit()]) {
    if (target === null || target <= current) continue;
    try {
      execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${target}:${target}`], { stdio: 'ignore' });
      break;
    } catch {
      // not allowed (not root, or above the hard limit) or no prlimit: try the next, else keep the limit
    }
  }
  return openFileLimit();
}

function systemMaximum(): number | null {
  try {
    return Number(readFileSync('/proc/sys/fs/nr_open', 'utf8').trim()) || null;
  } catch {
    return null;
  }
}

function hardLimit(): number | null {
  try {
    const match = /^Max open files\s+\S+\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return match ? (match[1] === 'unlimited' ? WANTED_OPEN_FILES : Number(match[1])) : null;
  } catch {
    return null;
  }
}
