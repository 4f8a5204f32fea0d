/**
 * TLS of one run: the throwaway certificate, made when the first cell needs it
 * (a run without TLS never makes one), the private files of it for
 * --server-cmd servers that take {cert} and {key} (written once, deleted when
 * the run ends), and what each cell's server and clients get.
 */
import type { ClientTls } from '../../shared/types/adapter-types.js';
import type { ParamValues } from '../../shared/types/declaration-types.js';
import { makeCertificate, type TlsCertificate } from '../certificate.js';
import { writePemFiles, type PemFiles } from '../../child/pem-files.js';
import type { CellTls, ForeignServerSpec } from '../server-lifecycles/types.js';

export type { CellTls };

export class RunTls {
  private certificate: Promise<TlsCertificate> | null = null;
  private files: PemFiles | null = null;

  /**
   * `host`: the address servers bind, which the certificate must name beside the loopback defaults.
   * `foreignTrust`: what the clients trust for a wss:// server that does not serve the run's certificate (--ca, --insecure).
   */
  constructor(
    private readonly host: string,
    readonly foreignTrust: ClientTls | undefined,
  ) {}

  async forCell(cell: { foreign?: ForeignServerSpec; params: ParamValues }): Promise<CellTls> {
    const foreign = cell.foreign;
    if (foreign) {
      if (!foreign.tls) return {};
      if (foreign.kind === 'command' && foreign.takesCertificate) {
        const certificate = await this.runCertificate();
        return { files: this.pemFiles(certificate), client: { caPem: certificate.certPem } };
      }
      return this.foreignTrust ? { client: this.foreignTrust } : {};
    }
    if (cell.params.tls !== 'on') return {};
    const certificate = await this.runCertificate();
    return {
      server: { certPem: certificate.certPem, keyPem: certificate.keyPem },
      client: { caPem: certificate.certPem },
    };
  }

  /** Deletes the files (the certificate stays in memory for a later step of the same run); safe to call twice. */
  close(): void {
    this.files?.remove();
    this.files = null;
  }

  private runCertificate(): Promise<TlsCertificate> {
    this.certificate ??= makeCertificate({ extraHosts: [this.host] });
    return this.certificate;
  }

  private pemFiles(certificate: TlsCertificate): { certPath: string; keyPath: string } {
    this.files ??= writePemFiles(certificate);
    return { certPath: this.files.certPath, keyPath: this.files.keyPath };
  }
}
