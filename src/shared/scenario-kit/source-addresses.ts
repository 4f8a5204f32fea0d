/**
 * Spreads many client connections over several loopback source addresses, so
 * the local port range of one address is not what limits a load step. All of
 * 127.0.0.0/8 is loopback on Linux; 127.0.0.1 is left to the server.
 */
import { readFileSync } from 'node:fs';
import { limitsAreThisMachines } from '../open-file-limit.js';

/** Above this many connections, one more source address per this many. */
const CONNECTIONS_PER_ADDRESS = 1000;
const FIRST_HOST = 2;

/** `requested` when given, else none up to 1000 connections and one per 1000 above that. */
export function sourceAddressCount(connections: number, requested: number): number {
  if (requested > 0) return requested;
  return connections <= CONNECTIONS_PER_ADDRESS ? 0 : Math.min(250, Math.ceil(connections / CONNECTIONS_PER_ADDRESS));
}

/** Address of connection `index` (global over client processes), or undefined to let the kernel pick. */
export function sourceAddressFor(index: number, count: number): string | undefined {
  return count > 0 ? `127.0.0.${FIRST_HOST + (index % count)}` : undefined;
}

/** Size of the kernel's ephemeral port range (Linux); null elsewhere, or when the run is for other machines. */
export function localPortCount(): number | null {
  if (!limitsAreThisMachines()) return null;
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return low !== undefined && high !== undefined && high >= low ? high - low + 1 : null;
  } catch {
    return null;
  }
}
