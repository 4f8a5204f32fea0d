/**
 * Where wsbench's own HTTP surfaces listen (--dashboard, --metrics-listen,
 * --barrier-listen): "HOST:PORT" read by syntax alone. The host is an IP
 * literal or `localhost`; wsbench never looks a name up there, so a name is
 * refused before any packet leaves (a DNS query for `evil.example` is traffic
 * to a machine the user never named).
 */
import { isIP } from 'node:net';

export interface ListenAddress {
  /** An IP literal (IPv6 without brackets). */
  host: string;
  /** 0: any free port. */
  port: number;
}

/** The one name taken without a lookup: it is this machine's loopback by definition (RFC 6761). */
export const LOCALHOST = 'localhost';
const LOOPBACK_V4 = '127.0.0.1';

/**
 * "HOST:PORT", "[v6]:PORT", ":PORT", or "PORT" when `portAlone` allows it; without a host, `defaultHost`.
 * `localhost` becomes 127.0.0.1. Returns the problem, in words, instead of an address when the text is not one.
 */
export function parseListenAddress(
  text: string,
  defaultHost: string,
  portAlone: boolean,
): ListenAddress | { problem: 'syntax' | 'name'; host?: string } {
  const match = /^\s*(?:(?:\[([^\]\s]*)\]|([^:\s[\]]*)):)?(\d{1,5})\s*$/.exec(text);
  if (!match || Number(match[3]) > 65_535 || (!portAlone && match[1] === undefined && match[2] === undefined))
    return { problem: 'syntax' };
  const port = Number(match[3]);
  if (match[1] !== undefined)
    return isIP(match[1]) === 6 ? { host: match[1].toLowerCase(), port } : { problem: 'name', host: `[${match[1]}]` };
  const host = match[2] ?? '';
  if (host === '') return { host: defaultHost, port };
  if (host.toLowerCase() === LOCALHOST) return { host: LOOPBACK_V4, port };
  return isIP(host) === 4 ? { host, port } : { problem: 'name', host };
}

/** The one line for a host that is not an IP literal: wsbench binds addresses, it does not resolve names. */
export function notAnAddress(host: string): string {
  return `"${host}" is not an IP address or localhost: wsbench looks no name up here, give the address to listen on`;
}

/** The canonical text of an IP literal (brackets dropped, IPv6 compressed, lower case); null for anything else. */
export function canonicalIp(text: string): string | null {
  const bare = text.replace(/^\[|\]$/g, '');
  const kind = isIP(bare);
  if (kind === 0) return null;
  try {
    return new URL(`http://${kind === 6 ? `[${bare}]` : bare}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null; // an IPv6 zone id (fe80::1%eth0): not an address a Host header can name
  }
}

/** 127.0.0.0/8 and ::1 (and IPv4 loopback mapped into IPv6). */
export function isLoopbackAddress(host: string): boolean {
  const ip = canonicalIp(host);
  return ip !== null && (ip.startsWith('127.') || ip === '::1' || /^::ffff:7f[0-9a-f]{2}:/.test(ip));
}

/** 0.0.0.0 or :: : every address of the machine. */
export function isWildcardAddress(host: string): boolean {
  const ip = canonicalIp(host);
  return ip === '0.0.0.0' || ip === '::';
}

/** A host as it goes before ":port" (IPv6 in brackets). */
export function hostText(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The warning line for a surface bound beyond loopback (null on loopback): what it serves can be read by
 * any machine that reaches this one. `what` names the surface: "--dashboard", "--metrics-listen".
 */
export function exposureWarning(what: string, address: ListenAddress): string | null {
  if (isLoopbackAddress(address.host)) return null;
  return `warning: ${what} listens on ${hostText(address.host)}:${address.port}, beyond loopback: the run is visible to the network`;
}
