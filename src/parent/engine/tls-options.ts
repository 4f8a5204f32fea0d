/**
 * How the `tls` parameter meets the servers wsbench does not start itself. A
 * --target's URL says whether it speaks TLS (wss://, https://), and so does a
 * --server-cmd's: a command that takes {cert} and {key} serves the run's
 * certificate. Their cells follow that, not the parameter: a run that names
 * only TLS servers of its own gets `tls=on` by default, a value none of a
 * server's cells can have is refused, and --ca or --insecure say what the
 * clients trust for a TLS server that does not serve the run's certificate.
 * Errors name the option (the CLI turns it into its flag).
 */
import { X509Certificate } from 'node:crypto';
import { ParameterError } from '../../shared/types/errors.js';
import type { ClientTls } from '../../shared/types/adapter-types.js';
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { ForeignServerSpec } from '../server-lifecycles/types.js';
import { fillPlaceholders } from '../server-lifecycles/command-text.js';

/** `on` when the server serves TLS: the only `tls` value its cells can have. */
function tlsValueOf(spec: ForeignServerSpec): 'on' | 'off' {
  return spec.tls ? 'on' : 'off';
}

/** The parameters with `tls` set to what every foreign server serves, when none was given and they all agree on TLS. */
export function paramsWithTlsDefault(
  params: Readonly<Record<string, unknown>> | undefined,
  foreign: readonly ForeignServerSpec[],
): Record<string, unknown> {
  const given = { ...(params ?? {}) };
  if (given.tls !== undefined || foreign.length === 0 || !foreign.every((f) => f.tls)) return given;
  return { ...given, tls: 'on' };
}

/** Refuses a `tls` value list that leaves a foreign server no cell to run. */
export function checkForeignTls(paramSets: readonly ParamValues[], foreign: readonly ForeignServerSpec[]): void {
  const values = new Set(paramSets.map((set) => set.tls));
  for (const spec of foreign) {
    if (values.has(tlsValueOf(spec))) continue;
    const asked = [...values].join(',');
    throw new ParameterError(
      'tls',
      `${asked}, but ${describeTls(spec)}: ${spec.tls ? 'give --tls on (or drop --tls)' : fixFor(spec)}`,
    );
  }
}

/** Why a foreign server's cell with the other `tls` value is skipped. */
export function foreignTlsSkip(spec: ForeignServerSpec, tls: unknown): string | null {
  return tls === tlsValueOf(spec) ? null : `tls=${String(tls)}: ${describeTls(spec)}`;
}

/**
 * What the clients trust for foreign TLS servers that do not serve the run's certificate, from
 * `ca` (PEM text) or `insecure`; undefined: their default trust store. Either needs such a server.
 */
export function foreignTrustOf(
  options: { ca?: string; insecure?: boolean },
  foreign: readonly ForeignServerSpec[],
): ClientTls | undefined {
  const { ca, insecure } = options;
  if (ca === undefined && !insecure) return undefined;
  if (ca !== undefined && insecure)
    throw new ParameterError('insecure', 'cannot go with --ca: trust the certificate you name, or verify none');
  const option = ca !== undefined ? 'ca' : 'insecure';
  if (!foreign.some(needsTrust)) {
    throw new ParameterError(
      option,
      'needs a wss:// or https:// --target (or a --server-cmd with such a --server-url that takes no {cert} and {key})',
    );
  }
  if (ca === undefined) return { insecure: true };
  try {
    new X509Certificate(ca);
  } catch {
    throw new ParameterError('ca', 'holds no PEM certificate');
  }
  return { caPem: ca };
}

/** A TLS server whose certificate the run did not make: the clients need to be told what to trust. */
export function needsTrust(spec: ForeignServerSpec): boolean {
  return spec.tls && !(spec.kind === 'command' && spec.takesCertificate);
}

function describeTls(spec: ForeignServerSpec): string {
  if (spec.kind === 'target')
    return `target ${spec.name} is ${new URL(spec.url).protocol}// (${spec.tls ? 'TLS' : 'no TLS'})`;
  if (spec.takesCertificate) return `the --server-cmd ${spec.name} takes {cert} and {key}, so it serves TLS`;
  if (!spec.tls) return `the --server-cmd ${spec.name} serves no TLS (it takes no {cert} and {key})`;
  return `the --server-cmd ${spec.name} has a ${new URL(fillPlaceholders(spec.urlTemplate, { host: '127.0.0.1', port: 1 })).protocol}// URL (TLS)`;
}

function fixFor(spec: ForeignServerSpec): string {
  return spec.kind === 'target'
    ? 'give its wss:// (or https://) URL, or --tls off'
    : 'put {cert} and {key} where its command takes a certificate and key, or --tls off';
}
