/**
 * Which `Host` a surface of wsbench answers (the dashboard, /metrics, the shard
 * barrier). A page on another site can point its own name at 127.0.0.1 (DNS
 * rebinding) and then read whatever answers there as if it were its own; its
 * requests still carry its name in `Host`. So a surface answers only the
 * address it bound, `localhost` when that is loopback, the machine's own
 * addresses when it bound them all (0.0.0.0, ::), the machine's own host name
 * (what a scrape config names it by; a page elsewhere cannot rebind that name),
 * and names its user gave (the --barrier URL's host); anything else gets 421
 * and nothing of the run.
 * The port is not compared: a forwarded port (ssh -L, kubectl port-forward)
 * arrives under another one, and a rebinding page can use any port anyway.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import { canonicalIp, isLoopbackAddress, isWildcardAddress, LOCALHOST } from '../shared/listen-address.js';

export class HostCheck {
  private readonly names: Set<string>;
  private readonly wildcard: boolean;
  private readonly loopback: boolean;
  /** The machine's addresses, for a wildcard bind; read again when a Host is not among them (an address added since). */
  private own: Set<string> | null = null;

  /** `bound`: the IP literal the server listens on; `names`: host names the user gave for it (never resolved, only compared). */
  constructor(bound: string, names: readonly string[] = []) {
    this.wildcard = isWildcardAddress(bound);
    this.loopback = this.wildcard || isLoopbackAddress(bound);
    this.names = new Set(names.map((name) => canonicalIp(name) ?? name.toLowerCase()));
    const ip = canonicalIp(bound);
    if (ip !== null && !this.wildcard) this.names.add(ip);
    if (this.loopback) this.names.add(LOCALHOST);
    this.names.add(hostname().toLowerCase());
  }

  /** True when `host` (a Host header, with or without its port) names this surface. */
  allows(host: string | undefined): boolean {
    const name = hostName(host);
    if (name === null) return false;
    const ip = canonicalIp(name);
    if (this.names.has(ip ?? name)) return true;
    if (!this.wildcard || ip === null) return false;
    if (this.own?.has(ip)) return true;
    this.own = machineAddresses();
    return this.own.has(ip);
  }

  /** Answers 421 and returns false when the request's Host is not this surface's; true when it may be served. */
  admit(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.allows(request.headers.host)) return true;
    response.writeHead(421, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    response.end(
      '421 Misdirected Request: wsbench answers only requests addressed to the address it listens on (or localhost on loopback)\n',
    );
    return false;
  }
}

/** The host part of a Host header, lower case, without brackets or port; null when it is no host at all. */
function hostName(header: string | undefined): string | null {
  const text = header?.trim().toLowerCase();
  if (!text) return null;
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::\d{0,5})?$/.exec(text);
  if (!match) return null;
  return match[1] ?? match[2]!;
}

function machineAddresses(): Set<string> {
  const addresses = Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map((entry) => canonicalIp(entry.address.replace(/%.*$/, ''))),
  );
  return new Set(addresses.filter((ip): ip is string => ip !== null));
}
