/**
 * Which compiled test files `npm test` runs and how (test/run-suite.ts runs them):
 * every *.test.js, four at a time (the longest first), except the ones in SERIAL, which run afterwards
 * one at a time with nothing else running, because they judge a process by the
 * CPU it got, which a test file on the other core would take from it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Test files run at once: CI has 2 cores, and most tests spend much of their time waiting for child processes (to start, to open a window, to drain): on 2 cores the suite used 1.2 on average with 3 files at once, and a fourth fills those waits. */
export const TEST_CONCURRENCY = 4;

/** Test files that run alone, after the others, each with the reason. */
export const SERIAL: Readonly<Record<string, string>> = {
  'capacity-own-server.test.js':
    "it counts a capacity search's steps, and a step whose load generator's CPU demand (on a core or waiting for one) reaches 85 % is measured again: a file on the other core raises that demand",
  'load-saturation.test.js':
    'its quiet echo cell must not be judged starved or saturated, and a file on the other core makes its client wait for a core',
  'misbehaving-server.test.js': 'it tells a busy-looping server from a hung one by the CPU the server got',
  'shard-start-at.test.js': 'its shards must start within a 6 s lead, which a crowded machine can eat',
  'live-prometheus.test.js': 'a real Prometheus must scrape a short run within its deadline',
  'packed-types.test.js':
    'it packs and installs the tarball (~380 MB written) and runs two compilers over every declaration, ~40 s of both cores: beside it, the timed waits of another file run short of CPU',
};

/**
 * The files that take longest (a minute or more on the 2-core machine beside two busy loops: the suite's own
 * list of its slowest files says so), started first: a long file that starts last keeps the suite waiting on it
 * alone at the end, while started first it runs beside the short ones. Each one's header says why it is slow.
 */
export const LONGEST_FIRST: readonly string[] = [
  'packed-install.test.js',
  'docs-commands.test.js',
  'fault-statuses.test.js',
  'runtimes.test.js',
  'faults-never-ok.test.js',
  'bad-input.test.js',
  'readme-commands.test.js',
  'shard-bad-input.test.js',
  'run-control.test.js',
  'omit-optional-install.test.js',
];

/** The *.test.js files of `dir`, the longest first, then by name: those that run together and those that run alone. Throws when SERIAL or LONGEST_FIRST names a file that is not there. */
export function suiteFiles(dir: string): { together: string[]; alone: string[] } {
  const missing = [...Object.keys(SERIAL), ...LONGEST_FIRST].filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) throw new Error(`SERIAL or LONGEST_FIRST names ${missing.join(', ')}, not in ${dir}`);
  const rank = (file: string): number => {
    const at = LONGEST_FIRST.indexOf(file);
    return at < 0 ? LONGEST_FIRST.length : at;
  };
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.test.js'))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return { together: files.filter((file) => !(file in SERIAL)), alone: files.filter((file) => file in SERIAL) };
}
