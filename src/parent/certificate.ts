/**
 * A throwaway key and self-signed certificate, made in-process for one run:
 * servers present it, clients trust exactly it. @peculiar/x509 builds and signs
 * the certificate with Node's own WebCrypto, so no openssl binary and no file is
 * involved (see pem-files.ts for the children that need one).
 */
import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

/** ECDSA P-256 is what most TLS servers present today; RSA 2048 shows what the older, costlier handshake does. */
export type CertificateKeyType = 'ecdsa-p256' | 'rsa-2048';

/** What a server needs to serve TLS and a client to trust it; PEM text, so it crosses IPC as is. */
export interface TlsCertificate {
  /** The certificate, which is also the only trust anchor clients are given. */
  certPem: string;
  /** Its private key, PKCS#8. */
  keyPem: string;
  keyType: CertificateKeyType;
  /** The names and addresses it is valid for (subjectAltName). */
  hosts: string[];
  /** Epoch ms after which no client accepts it. */
  notAfterMs: number;
  /** SHA-256 of the certificate, colon-separated hex, as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprintSha256: string;
}

interface CertificateOptions {
  /** Host names and addresses besides the loopback defaults, e.g. the run's `--host` 127.x address. */
  extraHosts?: string[];
  /** Defaults to ecdsa-p256. */
  keyType?: CertificateKeyType;
  /** How long it stays valid; the run it serves must end within. Defaults to DEFAULT_VALIDITY_MS. */
  validForMs?: number;
}

/** Loopback names every certificate covers: wsbench serves on 127.x and a user may say localhost. */
const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1'];
/** Two days: longer than any run on one machine is planned to take, short enough to be worthless if it leaked. */
export const DEFAULT_VALIDITY_MS = 48 * 60 * 60 * 1000;
/** A client whose clock reads a little behind must not find the certificate "not yet valid". */
const BACKDATE_MS = 60_000;

const ALGORITHMS = {
  'ecdsa-p256': { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' },
  'rsa-2048': {
    name: 'RSASSA-PKCS1-v1_5',
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: 'SHA-256',
  },
} as const;

/**
 * The library, loaded on first use: its import takes about half a second here
 * (tsyringe, reflect-metadata, the ASN.1 schemas), which a run without TLS and
 * every `import 'wsbench'` should not pay.
 */
let library: Promise<typeof import('@peculiar/x509')> | null = null;
function x509Library(): Promise<typeof import('@peculiar/x509')> {
  library ??= import('@peculiar/x509').then((x509) => {
    // Node's own WebCrypto, not whatever the library would find on globalThis first.
    x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
    return x509;
  });
  return library;
}

export async function makeCertificate(options: CertificateOptions = {}): Promise<TlsCertificate> {
  const x509 = await x509Library();
  const keyType = options.keyType ?? 'ecdsa-p256';
  const hosts = [...new Set([...LOOPBACK_HOSTS, ...(options.extraHosts ?? [])])];
  const nowMs = Date.now();
  const notAfterMs = nowMs + (options.validForMs ?? DEFAULT_VALIDITY_MS);
  const algorithm = ALGORITHMS[keyType];
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    // A positive 16-byte serial: every run's certificate differs, so no client cache mixes two.
    serialNumber: `01${randomBytes(15).toString('hex')}`,
    name: 'CN=wsbench throwaway certificate',
    notBefore: new Date(nowMs - BACKDATE_MS),
    notAfter: new Date(notAfterMs),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.SubjectAlternativeNameExtension(
        hosts.map((host) => (isIP(host) ? { type: 'ip', value: host } : { type: 'dns', value: host })),
      ),
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | (keyType === 'rsa-2048' ? x509.KeyUsageFlags.keyEncipherment : 0),
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const certPem = `${certificate.toString('pem')}\n`;
  return {
    certPem,
    keyPem: toPem('PRIVATE KEY', Buffer.from(pkcs8)),
    keyType,
    hosts,
    notAfterMs,
    fingerprintSha256: new X509Certificate(certPem).fingerprint256,
  };
}

function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
