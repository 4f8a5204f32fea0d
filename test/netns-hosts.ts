/**
 * Hosts simulated with network namespaces, for the sharded tests: one
 * namespace per "machine", each with an eth0 on 10.213.0.0/24, all joined by a
 * bridge that lives in a namespace of its own. Nothing is created in the
 * host's own namespace: its interfaces and routes are never touched, and all
 * traffic stays among the namespaces. Needs root and iproute2's `ip`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export const SUBNET_PREFIX = '10.213.0';

export interface SimulatedHost {
  /** Namespace name. */
  ns: string;
  address: string;
}

/** Why namespaces cannot be used here, or null when they can. */
export function netnsUnavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'creating network namespaces needs root';
  const ip = spawnSync('ip', ['-V'], { encoding: 'utf8' });
  if (ip.error || ip.status !== 0) return 'iproute2 (the `ip` command) is not installed';
  const probe = `wsbp${randomBytes(3).toString('hex')}`;
  const added = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (added.status !== 0) return `ip netns add failed: ${(added.stderr || '').trim().split('\n')[0]}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return null;
}

function ip(...args: string[]): void {
  const outcome = spawnSync('ip', args, { encoding: 'utf8' });
  if (outcome.status !== 0) throw new Error(`ip ${args.join(' ')}: ${(outcome.stderr || '').trim()}`);
}

export class SimulatedNetwork {
  readonly hosts: SimulatedHost[] = [];
  private readonly tag = randomBytes(3).toString('hex');
  private readonly bridgeNs = `wsb${this.tag}sw`;
  private readonly namespaces: string[] = [];

  /** `count` hosts at 10.213.0.1, .2, ... */
  constructor(count: number) {
    this.add(this.bridgeNs);
    ip('-n', this.bridgeNs, 'link', 'add', 'br0', 'type', 'bridge');
    ip('-n', this.bridgeNs, 'link', 'set', 'br0', 'up');
    for (let i = 1; i <= count; i++) {
      const ns = `wsb${this.tag}h${i}`;
      this.add(ns);
      // The veth is made inside the host's namespace, its peer goes straight into the bridge's.
      ip('-n', ns, 'link', 'add', 'eth0', 'type', 'veth', 'peer', 'name', `p${i}`, 'netns', this.bridgeNs);
      ip('-n', this.bridgeNs, 'link', 'set', `p${i}`, 'master', 'br0', 'up');
      ip('-n', ns, 'addr', 'add', `${SUBNET_PREFIX}.${i}/24`, 'dev', 'eth0');
      ip('-n', ns, 'link', 'set', 'eth0', 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      this.hosts.push({ ns, address: `${SUBNET_PREFIX}.${i}` });
    }
  }

  /** Starts `command` inside a host's namespace (ip netns exec runs it in place: the child's pid is the command's). */
  spawnIn(host: SimulatedHost, command: string, args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
    return spawn('ip', ['netns', 'exec', host.ns, command, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** Kills whatever still runs in our namespaces (all of it started by the test), then deletes them. */
  destroy(): void {
    for (const ns of this.namespaces) {
      const pids =
        spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' })
          .stdout?.split('\n')
          .filter((p) => /^\d+$/.test(p)) ?? [];
      for (const pid of pids) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    for (const ns of this.namespaces.reverse()) spawnSync('ip', ['netns', 'del', ns]);
  }

  private add(ns: string): void {
    ip('netns', 'add', ns);
    this.namespaces.push(ns);
  }
}
