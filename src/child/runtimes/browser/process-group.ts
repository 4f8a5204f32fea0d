/**
 * The processes of a browser, found by their process group: every Chromium
 * process (zygotes, renderers, the network service, the GPU process) stays in
 * the group of the browser process, which leads its own (browser-process.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The processes of each of `groups`, by group, from /proc/<pid>/stat (field 5, the process group). */
export function groupMembers(groups: Set<number>): Map<number, number[]> {
  const members = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (groups.has(group)) members.set(group, [...(members.get(group) ?? []), Number(name)]);
    } catch {
      // gone while we looked
    }
  }
  return members;
}

/**
 * Memory of every process of `groups`, added up, in bytes: RSS (what the window's samples add up too,
 * counting the pages they share once per process) and PSS (each shared page split among its sharers:
 * what the browser really holds). Null when /proc has no smaps_rollup.
 */
export function groupMemory(groups: readonly number[]): { rssBytes: number; pssBytes: number } | null {
  let rssKb = 0;
  let pssKb = 0;
  for (const members of groupMembers(new Set(groups)).values()) {
    for (const pid of members) {
      let text: string;
      try {
        text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      } catch {
        continue;
      }
      const field = (name: string): number | null => {
        const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
        return match ? Number(match[1]) : null;
      };
      const rss = field('Rss');
      const pss = field('Pss');
      if (rss === null || pss === null) return null;
      rssKb += rss;
      pssKb += pss;
    }
  }
  return rssKb === 0 ? null : { rssBytes: rssKb * 1024, pssBytes: pssKb * 1024 };
}
