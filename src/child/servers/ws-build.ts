/**
 * ws masks and unmasks frames with the optional `bufferutil` addon when it can
 * load it (here it arrives as an optional dependency of the uWS package). That
 * changes ws's speed, so the result records it.
 */
import { createRequire } from 'node:module';
import { probeByImport } from '../../shared/package-version.js';
import type { Availability } from '../../shared/types/result-types.js';

const require = createRequire(import.meta.url);

export async function probeWs(): Promise<Availability> {
  const availability = await probeByImport('ws', () => import('ws'));
  if (!availability.available) return availability;
  const addon = Object.keys(require.cache).find((path) => /bufferutil[\\/].*\.node$/.test(path));
  return {
    ...availability,
    build: { packageName: 'ws', native: addon !== undefined, ...(addon ? { binary: 'bufferutil' } : {}) },
  };
}
