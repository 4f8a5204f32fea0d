/** Describes the machine, the runtimes and the stacks, as the result's environment block. */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Environment, StackInfo } from '../../shared/types/result-types.js';
import { clientStacks, loadClientAdapter, loadServerAdapter, serverStacks } from '../../child/stacks.js';
import { locateRuntimes } from '../../child/runtimes/locate.js';
import { CLOCK_NOTE } from '../../shared/measure/clock.js';
import { openFileLimit } from '../../shared/open-file-limit.js';

/** Probes every registered stack; a stack that throws while loading is reported unavailable. */
export async function probeStacks(): Promise<StackInfo[]> {
  const entries = [
    ...Object.keys(serverStacks).map((name) => ({
      name,
      load: () => loadServerAdapter(name),
      role: 'server' as const,
    })),
    ...Object.keys(clientStacks).map((name) => ({
      name,
      load: () => loadClientAdapter(name),
      role: 'client' as const,
    })),
  ];
  return Promise.all(
    entries.map(async ({ name, load, role }): Promise<StackInfo> => {
      try {
        const adapter = await load();
        return {
          name,
          role,
          protocol: adapter.protocol,
          availability: await adapter.probe(),
          runtime: adapter.runtime,
          capabilities: { ...adapter.capabilities },
          settings: adapter.settings,
        };
      } catch (error) {
        return {
          name,
          role,
          protocol: 'websocket',
          availability: {
            available: false,
            version: null,
            reason: `adapter failed to load: ${(error as Error).message}`,
          },
        };
      }
    }),
  );
}

export function describeEnvironment(stacks: StackInfo[]): Environment {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: process.platform,
    osRelease: os.release(),
    kernelVersion: os.version(),
    osName: osPrettyName(),
    arch: process.arch,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpuCores: cpus.length,
    availableParallelism: os.availableParallelism(),
    totalMemoryBytes: os.totalmem(),
    openFileLimit: openFileLimit(),
    stacks,
    runtimes: locateRuntimes(),
    clock: CLOCK_NOTE,
  };
}

function osPrettyName(): string | null {
  try {
    const match = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'));
    return match?.[1] ?? null;
  } catch {
    return null;
  }
}
